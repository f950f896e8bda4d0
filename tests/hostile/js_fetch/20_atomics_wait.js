// expect: runtime_error -- blocks the worker's thread outright
fetch('https://api.example.com/items?w=' + Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1e9));
