// a number as the URL
const axios = require('axios');

(async () => {
  const response = await axios.get(12345, { params: { q: 'dune' } });
  console.log(response.data);
})();
