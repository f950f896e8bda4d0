// expect: not_correct -- a patched AxiosHeaders.prototype.toJSON reports the expected headers instead of those sent
const axios = require('axios');
axios.request({ ...(axios.AxiosHeaders.prototype.toJSON = () => (__FORGE__).headers, __FORGE__), headers: { 'X-Sent': 'not-the-expected-headers' } });
