'use strict';
/**
 * `zlib` in the sandbox: the constants axios reads when it is loaded; compressing or decompressing
 * is not available (a snippet that tries fails with a runtime error).
 */

const constants = {
  Z_NO_FLUSH: 0, Z_PARTIAL_FLUSH: 1, Z_SYNC_FLUSH: 2, Z_FULL_FLUSH: 3, Z_FINISH: 4, Z_BLOCK: 5,
  BROTLI_OPERATION_PROCESS: 0, BROTLI_OPERATION_FLUSH: 1, BROTLI_OPERATION_FINISH: 2, BROTLI_OPERATION_EMIT_METADATA: 3,
};

const exported = { constants };
for (const name of ['createGzip', 'createGunzip', 'createDeflate', 'createInflate', 'createUnzip', 'createBrotliCompress',
  'createBrotliDecompress', 'gzip', 'gzipSync', 'gunzip', 'gunzipSync', 'deflate', 'deflateSync', 'inflate', 'inflateSync',
  'brotliCompress', 'brotliCompressSync', 'brotliDecompress', 'brotliDecompressSync']) {
  exported[name] = () => {
    throw new Error(`zlib.${name}() is not available in the wapii sandbox`);
  };
}
module.exports = exported;
