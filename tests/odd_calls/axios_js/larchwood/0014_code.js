// the config passed as the body (axios post(url, {data}))
const axios = require('axios');

(async () => {
  const response = await axios.post('https://api.larchwood-library.example/v2/loans', { data: { member_id: 'mb_1', copy_ids: ['cp_1'] } });
  console.log(response.data);
})();
