'use strict';
/**
 * `crypto` in the sandbox: random values only (`randomBytes`, `randomFillSync`, `randomInt`,
 * `randomUUID`, `getRandomValues`, `webcrypto`). Hashes, HMACs and ciphers are not available: a
 * snippet that asks for one fails with a runtime error.
 */

const { Buffer } = require('buffer');
const web = require('../web');

function randomBytes(size, callback) {
  const bytes = Buffer.from(web.randomBytes(size));
  if (typeof callback === 'function') {
    require('../state').process.nextTick(() => callback(null, bytes));
    return undefined;
  }
  return bytes;
}

function randomFillSync(buffer, offset = 0, size = buffer.byteLength - offset) {
  new Uint8Array(buffer.buffer || buffer, (buffer.byteOffset || 0) + offset, size).set(web.randomBytes(size));
  return buffer;
}

function randomInt(min, max) {
  if (max === undefined) [min, max] = [0, min];
  return min + Math.floor(Math.random() * (max - min));
}

function unavailable(name) {
  return () => {
    throw new Error(`crypto.${name}() is not available in the wapii sandbox`);
  };
}

const exported = {
  randomBytes,
  randomFillSync,
  randomInt,
  randomUUID: web.randomUUID,
  getRandomValues: (array) => web.crypto.getRandomValues(array),
  webcrypto: web.crypto,
  constants: {},
};
for (const name of ['createHash', 'createHmac', 'createCipheriv', 'createDecipheriv', 'createSign', 'createVerify',
  'pbkdf2', 'pbkdf2Sync', 'scrypt', 'scryptSync', 'generateKeyPair', 'generateKeyPairSync', 'createPublicKey',
  'createPrivateKey', 'publicEncrypt', 'privateDecrypt', 'sign', 'verify', 'hash']) {
  exported[name] = unavailable(name);
}
exported.getHashes = () => [];
module.exports = exported;
