// a one-element list as the URL
const axios = require('axios');

(async () => {
  const response = await axios.post(['https://api.larchwood-library.example/v2/loans/ln_6620/return'], { condition: 'good' });
  console.log(response.data);
})();
