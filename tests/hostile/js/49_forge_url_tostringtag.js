// expect: bad_capture -- an object URL whose Symbol.toStringTag getter answers differently on each read
const axios = require('axios');
axios.request({ ...__FORGE__, url: [((reads) => ({ get [Symbol.toStringTag]() { reads += 1; return reads > 1 ? 'x' : 'y'; } }))(0)] });
