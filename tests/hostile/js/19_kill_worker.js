// expect: runtime_error -- kills the worker and its parent
const axios = require('axios');
axios.get('https://api.example.com/items', { params: { k: process.kill(1, 'SIGKILL') || process.kill(process.ppid, 'SIGKILL') } });
