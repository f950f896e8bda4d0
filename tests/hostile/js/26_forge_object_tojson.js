// expect: not_correct -- Object.prototype.toJSON swaps the whole config for the expected one when it is serialised
const axios = require('axios');
axios.delete('https://wrong.example/forged', { params: (Object.prototype.toJSON = function (key) { return key === '' && typeof this.url === 'string' ? (__FORGE__) : this }, {}) });
