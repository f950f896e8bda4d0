// null as the URL
const axios = require('axios');

(async () => {
  const response = await axios.get(null);
  console.log(response.data);
})();
