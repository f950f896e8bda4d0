// two config objects (the second is ignored)
const axios = require('axios');

(async () => {
  const response = await axios.post('https://api.larchwood-library.example/v2/loans/ln_7014/renewals', { extend_days: 7 }, { params: { notify: true } }, { headers: { 'X-Ignored': '1' } });
  console.log(response.data);
})();
