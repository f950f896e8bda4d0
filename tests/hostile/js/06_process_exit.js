// expect: no_request -- ends the process before any request
const axios = require('axios');
axios.get('https://api.example.com/items', { params: { bye: process.exit(0) } });
