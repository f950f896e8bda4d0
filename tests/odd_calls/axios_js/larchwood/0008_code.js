// axios(url, config)
const axios = require('axios');

(async () => {
  const response = await axios('https://api.larchwood-library.example/v2/books/bk_20931/reviews', { method: 'post', data: { rating: 5, title: 'Great' } });
  console.log(response.data);
})();
