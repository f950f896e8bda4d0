// expect: bad_capture -- a list as the URL whose text a patched Array.prototype.join makes the expected URL
const axios = require('axios');
axios.request({ ...__FORGE__, url: (Array.prototype.join = function () { return (__FORGE__).url; }, ['https://wrong.example/forged']) });
