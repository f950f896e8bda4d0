// no URL at all
const axios = require('axios');

(async () => {
  const response = await axios.get();
  console.log(response.data);
})();
