// expect: not_correct -- a redefined AxiosHeaders.prototype.toJSON reports the expected headers instead of those sent
const axios = require('axios');
axios.request({ ...(Object.defineProperty(axios.AxiosHeaders.prototype, 'toJSON', { value: () => (__FORGE__).headers }), __FORGE__), headers: { 'X-Sent': 'not-the-expected-headers' } });
