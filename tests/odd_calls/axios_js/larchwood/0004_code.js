// undefined as the URL
const axios = require('axios');

(async () => {
  const response = await axios.patch(undefined, { pages: 412, subtitle: 'A novel' });
  console.log(response.data);
})();
