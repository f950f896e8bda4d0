// axios post() without arguments
const axios = require('axios');

(async () => {
  const response = await axios.post();
  console.log(response.data);
})();
