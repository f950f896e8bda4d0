// an instance from axios create with a baseURL
const axios = require('axios');

(async () => {
  const response = await axios.create({ baseURL: 'https://api.larchwood-library.example/v2' }).post('/members', { name: 'Ada', email: 'ada@example.com' });
  console.log(response.data);
})();
