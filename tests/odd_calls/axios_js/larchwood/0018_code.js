// a whole request config passed as the body
const axios = require('axios');

(async () => {
  const response = await axios.post('https://api.larchwood-library.example/v2/holds', { method: 'post', headers: { 'X-Trace': '1' }, data: { member_id: 'mb_1', book_id: 'bk_1' } });
  console.log(response.data);
})();
