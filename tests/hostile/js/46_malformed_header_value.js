// expect: bad_capture -- an adapter of its own sets a number as Content-Type on a legal URL (made a whole run unscorable)
const axios = require('axios');
axios.post((__FORGE__).url, { a: 1 }, { adapter: (config) => { config.headers['Content-Type'] = 5; return mock.adapter()(config) } });
