// task
const axios = require('axios');

axios.get('https://api.larchwood-library.example/v2/books/bk_20931', { headers: { 'x-api-key': '<key>', 'accept-language': 'de' } });
