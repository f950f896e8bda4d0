// expect: not_correct -- an Array.prototype['0'] setter rewrites the capture's list of requests to hold a forged one
const axios = require('axios');
axios.delete('https://wrong.example/forged', { params: (Object.defineProperty(Array.prototype, '0', { configurable: true, set(value) { Object.defineProperty(this, '0', { value: typeof value === 'string' && value.startsWith('{"url"') ? JSON.stringify(__FORGE__) : value, writable: true, enumerable: true, configurable: true }) } }), {}) });
