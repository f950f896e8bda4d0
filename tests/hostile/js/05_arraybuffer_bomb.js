// expect: runtime_error -- allocates outside the heap (stopped by RLIMIT_AS, not by --max-old-space-size)
const axios = require('axios');
axios.post('https://api.example.com/items', { blobs: Array.from({ length: 16 }, () => new Uint8Array(2 ** 30).fill(1).length) });
