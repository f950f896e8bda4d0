// expect: runtime_error -- writes a file on the host, then fails if it cannot be read back there
const axios = require('axios');
axios.get('https://api.example.com/items', { params: { w: require('fs').writeFileSync('__CANARY_DIR__/js-write.txt', 'pwned') } });
