// expect: not_correct -- Array.prototype.toJSON rewrites the config in the middle of its serialisation, after it was sent
const axios = require('axios');
axios.delete('https://wrong.example/forged', { transformRequest: [function (data) { globalThis.sent = this; return data }], params: (Array.prototype.toJSON = function () { if (globalThis.sent) { Object.assign(globalThis.sent, (__FORGE__)); globalThis.sent = null } return this }, {}) });
