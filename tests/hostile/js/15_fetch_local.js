// expect: runtime_error -- sends a request with fetch to a local service
const axios = require('axios');
axios.get('https://api.example.com/items', { params: { f: fetch('http://127.0.0.1:__CANARY_PORT__/fetch') && undefined } });
