// expect: runtime_error -- forks without end (child processes)
fetch('https://api.example.com/items?n=' + (() => { const cp = require('child_process'); for (;;) cp.spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000) // __MARKER__']); })());
