// true as the URL
const axios = require('axios');

(async () => {
  const response = await axios.get(true, { params: { city: 'Eastgate' } });
  console.log(response.data);
})();
