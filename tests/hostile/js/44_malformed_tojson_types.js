// expect: not_correct -- a toJSON that returns values of the wrong types for every judged field (made a whole run unscorable)
const axios = require('axios');
axios.delete('https://wrong.example/forged', { toJSON: () => ({ url: 5, method: [1], headers: 'x', params: 7, path_params: 7, data: { toJSON: () => null } }) });
