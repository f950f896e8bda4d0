// expect: bad_capture -- sets the config's path_params to a number (made a whole run unscorable)
const axios = require('axios');
axios.get('https://wrong.example/items', { path_params: 7 });
