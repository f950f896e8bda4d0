// expect: bad_capture -- an object URL whose Symbol.toStringTag getter answers the expected URL on a later read
const axios = require('axios');
let reads = 0;
axios.request({ ...__FORGE__, url: [{ get [Symbol.toStringTag]() { reads += 1; return reads > 1 ? 'x' : 'y'; } }] });
