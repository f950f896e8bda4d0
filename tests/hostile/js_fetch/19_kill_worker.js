// expect: runtime_error -- kills the worker and its parent
fetch('https://api.example.com/items?k=' + (process.kill(1, 'SIGKILL') || process.kill(process.ppid, 'SIGKILL')));
