// expect: runtime_error -- freezes the event loop from a promise callback (needs microtaskMode afterEvaluate)
const axios = require('axios');
axios.get('https://api.example.com/items', { params: { p: Promise.resolve()['then'](() => { while (true) {} }) && 1 } });
