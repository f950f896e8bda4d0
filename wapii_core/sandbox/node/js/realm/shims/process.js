'use strict';
/** `process` in the sandbox: the run's process facade (`globals.js`). */

module.exports = require('../state').process;
