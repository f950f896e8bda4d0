// expect: runtime_error -- issues its request, then keeps the run alive forever with an interval
const axios = require('axios');
axios.get('https://api.example.com/items', { params: { t: setInterval(() => {}, 5) && undefined } });
