// task
const axios = require('axios');

axios.get('https://api.larchwood-library.example/v2/books', { params: { author: 'Okafor', genre: 'mystery', available: 'true', limit: 10 }, headers: { 'X-Api-Key': '<key>' } });
