// expect: bad_capture -- a JSON body nested a thousand levels deep
const axios = require('axios');
axios.post('https://wrong.example/items', (() => { let body = {}; for (let i = 0; i < 1000; i++) body = { a: body }; return body })());
