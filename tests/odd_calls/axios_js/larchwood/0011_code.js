// a list as the URL
const axios = require('axios');

(async () => {
  const response = await axios.get(['https://api.larchwood-library.example/v2/members/mb_30417', 'mb_30417']);
  console.log(response.data);
})();
