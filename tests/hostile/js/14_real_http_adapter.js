// expect: runtime_error -- sends the request for real, to a local service, through axios's http adapter
const axios = require('axios');
axios.get('http://127.0.0.1:__CANARY_PORT__/steal', { adapter: 'http' });
