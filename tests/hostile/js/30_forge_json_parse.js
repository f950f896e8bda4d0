// expect: not_correct -- a patched JSON.parse decodes the body that was sent as the expected body
const axios = require('axios');
axios.request({ ...(((parse) => { JSON.parse = function (text, ...rest) { return text === '{"forged":"body"}' ? (__FORGE__).data : parse(text, ...rest) } })(JSON.parse), __FORGE__), data: { forged: 'body' } });
