'use strict';
/** `timers` in the sandbox: the run's own timer functions (`loop.js`). */

const names = ['setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate'];
for (const name of names) module.exports[name] = (...args) => globalThis[name](...args);
module.exports.promises = {
  setTimeout: (delay, value) => new Promise((resolve) => globalThis.setTimeout(() => resolve(value), delay)),
  setImmediate: (value) => new Promise((resolve) => globalThis.setImmediate(() => resolve(value))),
};
