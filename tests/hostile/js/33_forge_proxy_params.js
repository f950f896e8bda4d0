// expect: bad_capture -- the query parameters are a Proxy whose traps decide what the capture reads
const axios = require('axios');
axios.request({ ...__FORGE__, url: 'https://wrong.example/forged', params: new Proxy({}, { getPrototypeOf: () => Array.prototype, ownKeys: () => Reflect.ownKeys((__FORGE__).params || {}), getOwnPropertyDescriptor: (target, key) => ({ value: ((__FORGE__).params || {})[key], enumerable: true, configurable: true }), get: (target, key) => ((__FORGE__).params || {})[key] }) });
