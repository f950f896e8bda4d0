// task
const axios = require('axios');

axios.get('https://api.larchwood-library.example/v2/books', { params: { q: 'tidal clocks', published_after: 2015, offset: 20.0 }, headers: { 'X-Api-Key': '<key>' } });
