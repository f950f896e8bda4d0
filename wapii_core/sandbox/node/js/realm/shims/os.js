'use strict';
/** `os` in the sandbox: fixed, harmless facts about a Linux machine named `sandbox`. */

const state = require('../state');

module.exports = {
  EOL: '\n',
  arch: () => state.process.arch,
  platform: () => state.process.platform,
  type: () => 'Linux',
  release: () => '6.0.0',
  version: () => '#1 SMP',
  hostname: () => 'sandbox',
  homedir: () => '/tmp',
  tmpdir: () => '/tmp',
  endianness: () => 'LE',
  cpus: () => [],
  availableParallelism: () => 1,
  totalmem: () => 1073741824,
  freemem: () => 536870912,
  loadavg: () => [0, 0, 0],
  uptime: () => 1,
  networkInterfaces: () => ({}),
  userInfo: () => ({ uid: 1000, gid: 1000, username: 'sandbox', homedir: '/tmp', shell: null }),
  constants: { signals: {}, errno: {} },
  devNull: '/dev/null',
};
