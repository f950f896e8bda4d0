// expect: runtime_error -- freezes the event loop from a promise callback (needs microtaskMode afterEvaluate)
fetch('https://api.example.com/items?p=' + (Promise.resolve()['then'](() => { while (true) {} }) && 1));
