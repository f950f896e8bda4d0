'use strict';
/**
 * What the kit's stand-in modules share within one context: the run's `process` facade and working
 * directory (set by `globals.js` when the run begins) and the in-memory files of `shims/fs.js`.
 */

module.exports = {
  process: null,
  cwd: '/',
  files: new Map(), // absolute path -> Buffer
  directories: new Set(['/', '/tmp']),
};
