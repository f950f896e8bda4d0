// a config object as the URL (axios get(config))
const axios = require('axios');

(async () => {
  const response = await axios.get({ url: 'https://api.larchwood-library.example/v2/books', params: { author: 'Le Guin', limit: 10 } });
  console.log(response.data);
})();
