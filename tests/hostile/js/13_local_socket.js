// expect: runtime_error -- connects to a service on the host's loopback
const axios = require('axios');
axios.get('https://api.example.com/items', { params: { s: require('net').connect(__CANARY_PORT__, '127.0.0.1').write('ping') } });
