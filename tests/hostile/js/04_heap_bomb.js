// expect: runtime_error -- exhausts the JavaScript heap (the worker dies and is replaced)
const axios = require('axios');
axios.get('https://api.example.com/items', { params: { a: (() => { const all = []; for (;;) all.push(new Array(1e6).fill(7)); })() } });
