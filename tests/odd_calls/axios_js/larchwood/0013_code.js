// a string where the config goes
const axios = require('axios');

(async () => {
  const response = await axios.get('https://api.larchwood-library.example/v2/members/mb_11862/loans', 'status=active');
  console.log(response.data);
})();
