// extra arguments after the config
const axios = require('axios');

(async () => {
  const response = await axios.put('https://api.larchwood-library.example/v2/members/mb_30417', { name: 'Ada' }, { headers: { 'X-Trace': '1' } }, 'extra', 42);
  console.log(response.data);
})();
