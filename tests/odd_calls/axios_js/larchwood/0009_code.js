// axios request(config)
const axios = require('axios');

(async () => {
  const response = await axios.request({ url: 'https://api.larchwood-library.example/v2/members', params: { status: 'active', page: 2 } });
  console.log(response.data);
})();
