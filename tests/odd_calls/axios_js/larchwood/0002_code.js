// arguments in the wrong order (data, then URL)
const axios = require('axios');

(async () => {
  const response = await axios.post({ title: 'Dune', isbn: '9780441013593' }, 'https://api.larchwood-library.example/v2/books');
  console.log(response.data);
})();
