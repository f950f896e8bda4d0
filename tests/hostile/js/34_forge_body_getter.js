// expect: bad_capture -- the body that reaches the adapter has a getter that answers only when the capture reads it
const axios = require('axios');
axios.post('https://wrong.example/forged', { title: 'sent' }, { transformRequest: [() => Object.defineProperty({}, 'title', { enumerable: true, get: () => 'read by the capture' })] });
