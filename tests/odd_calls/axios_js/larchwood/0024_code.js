// a body in the config of a shorthand that takes the body as an argument
const axios = require('axios');

(async () => {
  const response = await axios.post('https://api.larchwood-library.example/v2/newsletter/subscriptions', undefined, { params: { api_key: 'k' }, data: { email: 'a@example.com' } });
  console.log(response.data);
})();
