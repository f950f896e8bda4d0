// expect: not_correct -- the config's own toJSON describes the expected request instead of the one sent
const axios = require('axios');
axios.delete('https://wrong.example/forged', { toJSON: () => (__FORGE__) });
