// a URL both as argument and in the config (the argument wins)
const axios = require('axios');

(async () => {
  const response = await axios.get('https://api.larchwood-library.example/v2/reports/overdue', { url: 'https://elsewhere.example/x', params: { format: 'csv' } });
  console.log(response.data);
})();
