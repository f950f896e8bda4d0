'use strict';
/** `fs/promises` in the sandbox: the promise form of `shims/fs.js`. */

module.exports = require('./fs').promises;
