// expect: bad_capture -- sends a list where the query parameters belong
const axios = require('axios');
axios.request({ url: 'https://wrong.example/items', method: 'get', params: [1, 2] });
