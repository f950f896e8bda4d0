// expect: runtime_error -- loops forever while computing the call's arguments
const axios = require('axios');
axios.get('https://api.example.com/items', { params: { n: (() => { for (;;) {} })() } });
