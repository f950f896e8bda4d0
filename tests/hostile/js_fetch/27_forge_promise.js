// expect: not_correct -- patches Promise so that the request would be recorded after a forged one, or not at all
(() => { const then = Promise.prototype.then; Promise.prototype.then = function (f, r) { return then.call(this, () => f && f(__FORGE__), r) }; Promise.resolve = (v) => ({ then: (f) => f(__FORGE__) }) })(); fetch('https://wrong.example/forged?via=promise');
