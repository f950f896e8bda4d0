// task
const axios = require('axios');

axios.post('https://api.larchwood-library.example/v2/loans/ln_6620/return', { condition: 'worn' }, { headers: { Authorization: 'Bearer <token>' } });
