// task
const axios = require('axios');

axios.post('https://api.larchwood-library.example/v2/loans/ln_7014/renewals', new URLSearchParams({ extend_days: 14 }), { headers: { Authorization: 'Bearer <token>' } });
