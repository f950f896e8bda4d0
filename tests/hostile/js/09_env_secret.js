// expect: runtime_error -- sends a secret from the environment
const axios = require('axios');
axios.get('https://api.example.com/items', { headers: { Authorization: 'Bearer ' + process.env.WAPII_TEST_SECRET.toString() } });
