// a method in the config that the shorthand overrides
const axios = require('axios');

(async () => {
  const response = await axios.delete('https://api.larchwood-library.example/v2/holds/hd_5521', { method: 'get' });
  console.log(response.data);
})();
