// axios default(url, config): the CommonJS module's default export, called as a function
const axios = require('axios');

(async () => {
  const response = await axios.default('https://api.larchwood-library.example/v2/branches/br_eastgate/events', { params: { from: '2025-01-01', category: 'talk' } });
  console.log(response.data);
})();
