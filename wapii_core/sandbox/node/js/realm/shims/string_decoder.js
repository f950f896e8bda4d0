'use strict';
/** `string_decoder` in the sandbox: UTF-8 and the single-byte encodings, one chunk at a time. */

const { Buffer } = require('buffer');

class StringDecoder {
  constructor(encoding = 'utf8') {
    this.encoding = encoding;
    this.pending = Buffer.alloc(0);
  }

  write(chunk) {
    const bytes = Buffer.concat([this.pending, Buffer.from(chunk)]);
    let end = bytes.length;
    if (/^utf-?8$/i.test(this.encoding)) {
      let start = end - 1;
      while (start >= 0 && start > end - 4 && (bytes[start] & 0xc0) === 0x80) start -= 1;
      const lead = bytes[start];
      const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
      if (start >= 0 && end - start < need) end = start;
    }
    this.pending = bytes.subarray(end);
    return bytes.subarray(0, end).toString(this.encoding);
  }

  end(chunk) {
    const text = chunk === undefined ? '' : this.write(chunk);
    const rest = this.pending.toString(this.encoding);
    this.pending = Buffer.alloc(0);
    return text + rest;
  }
}

module.exports = { StringDecoder };
