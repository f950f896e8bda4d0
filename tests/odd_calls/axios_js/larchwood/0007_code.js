// axios(config)
const axios = require('axios');

(async () => {
  const response = await axios({ url: 'https://api.larchwood-library.example/v2/books/bk_48816/copies', method: 'post', data: { branch_id: 'br_eastgate', count: 2 } });
  console.log(response.data);
})();
