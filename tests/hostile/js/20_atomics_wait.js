// expect: runtime_error -- blocks the worker's thread outright
const axios = require('axios');
axios.get('https://api.example.com/items', { params: { w: Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1e9) } });
