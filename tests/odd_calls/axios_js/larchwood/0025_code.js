// a boxed string as the URL
const axios = require('axios');

(async () => {
  const response = await axios.get(new String('https://api.larchwood-library.example/v2/books'), { params: { q: 'dune', limit: 5 } });
  console.log(response.data);
})();
