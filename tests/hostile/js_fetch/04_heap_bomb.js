// expect: runtime_error -- exhausts the JavaScript heap (the worker dies and is replaced)
fetch('https://api.example.com/items?a=' + (() => { const all = []; for (;;) all.push(new Array(1e6).fill(7)); })());
