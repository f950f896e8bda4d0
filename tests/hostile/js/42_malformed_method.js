// expect: bad_capture -- replaces the method with an object after axios normalised it
const axios = require('axios');
axios.get('https://wrong.example/items', { transformRequest: [function (data) { this.method = { toLowerCase: () => 'get' }; return data }] });
