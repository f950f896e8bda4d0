// expect: bad_capture -- the URL is an object whose toString answers differently once the request has been routed
const axios = require('axios');
axios.request({ ...__FORGE__, url: { reads: 0, toString() { this.reads += 1; return this.reads > 1 ? (__FORGE__).url : 'https://wrong.example/forged' } } });
