// expect: bad_capture -- an adapter of its own puts an object inside a header list after axios normalised the headers
const axios = require('axios');
axios.get('https://wrong.example/items', { adapter: (config) => { config.headers['X-List'] = [{ toString: () => 'forged' }]; return mock.adapter()(config) } });
