// an instance created on one line, the call made through it on the next (only axios create runs)
const axios = require('axios');

(async () => {
  const api = axios.create({ headers: { 'X-Trace': '1' } });
  const response = await api.post('https://api.larchwood-library.example/v2/loans/ln_7388/return', { condition: 'fair' });
  console.log(response.data);
})();
