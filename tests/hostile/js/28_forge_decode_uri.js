// expect: not_correct -- a patched decodeURIComponent turns the URL that was sent into the expected one
const axios = require('axios');
axios.request({ ...(globalThis.decodeURIComponent = ((decode) => (text) => (text === 'https://wrong.example/forged' ? (__FORGE__).url : decode(text)))(decodeURIComponent), __FORGE__), url: 'https://wrong.example/forged' });
