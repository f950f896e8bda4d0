'use strict';
/**
 * Web-platform globals that Node provides and a generated call may use, written for the sandbox's
 * own realm: `TextEncoder`, `TextDecoder` (UTF-8), `atob`, `btoa`, `Event`, `EventTarget`,
 * `DOMException`, `AbortController`, `AbortSignal`, `FormData` (the WHATWG one, as `new FormData()`
 * gives in Node), `performance`, `crypto` (random values only) and a `fetch` that fails as offline.
 */

const buffer = require('buffer');

class DOMException extends Error {
  constructor(message = '', name = 'Error') {
    super(message);
    Object.defineProperty(this, 'name', { value: name, configurable: true, writable: true });
  }
}

/** UTF-8 bytes of a string (lone surrogates become U+FFFD, as in TextEncoder). */
function utf8(text) {
  const bytes = [];
  for (let i = 0; i < text.length; i += 1) {
    let code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      code = 0x10000 + ((code - 0xd800) << 10) + (text.charCodeAt(i += 1) - 0xdc00);
    } else if (code >= 0xd800 && code <= 0xdfff) {
      code = 0xfffd;
    }
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
    else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    else bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
  }
  return Uint8Array.from(bytes);
}

class TextEncoder {
  get encoding() {
    return 'utf-8';
  }

  encode(input = '') {
    return utf8(String(input));
  }

  encodeInto(input, destination) {
    const bytes = this.encode(input);
    const written = Math.min(bytes.length, destination.length);
    destination.set(bytes.subarray(0, written));
    return { read: String(input).length, written };
  }
}

class TextDecoder {
  constructor(label = 'utf-8', options = {}) {
    const encoding = String(label).trim().toLowerCase();
    if (encoding !== 'utf-8' && encoding !== 'utf8' && encoding !== 'unicode-1-1-utf-8') {
      throw new RangeError(`The "${label}" encoding is not supported in the wapii sandbox`);
    }
    this.fatal = Boolean(options.fatal);
    this.ignoreBOM = Boolean(options.ignoreBOM);
  }

  get encoding() {
    return 'utf-8';
  }

  decode(input = new Uint8Array(0)) {
    const view = ArrayBuffer.isView(input) ? input : new Uint8Array(input);
    let bytes = buffer.Buffer.from(view.buffer, view.byteOffset, view.byteLength);
    if (!this.ignoreBOM && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    const text = bytes.toString('utf8');
    if (this.fatal && text.includes('\ufffd') && !buffer.Buffer.from(text, 'utf8').equals(bytes)) {
      throw new TypeError('The encoded data was not valid for encoding utf-8');
    }
    return text;
  }
}

function btoa(data) {
  if (arguments.length === 0) throw new TypeError('The "data" argument must be specified');
  const text = String(data);
  for (let i = 0; i < text.length; i += 1) {
    if (text.charCodeAt(i) > 0xff) throw new DOMException('Invalid character', 'InvalidCharacterError');
  }
  return buffer.Buffer.from(text, 'latin1').toString('base64');
}

function atob(data) {
  if (arguments.length === 0) throw new TypeError('The "data" argument must be specified');
  const text = String(data).replace(/[\t\n\f\r ]/g, '');
  if (/[^A-Za-z0-9+/=]/.test(text) || text.length % 4 === 1) {
    throw new DOMException('The string to be decoded is not correctly encoded.', 'InvalidCharacterError');
  }
  return buffer.Buffer.from(text, 'base64').toString('latin1');
}

class Event {
  constructor(type, options = {}) {
    this.type = String(type);
    this.bubbles = Boolean(options.bubbles);
    this.cancelable = Boolean(options.cancelable);
    this.defaultPrevented = false;
    this.timeStamp = Date.now();
    this.target = null;
  }

  preventDefault() {
    if (this.cancelable) this.defaultPrevented = true;
  }
}

class EventTarget {
  constructor() {
    Object.defineProperty(this, '_listeners', { value: new Map() });
  }

  addEventListener(type, listener, options = {}) {
    if (typeof listener !== 'function' && !(listener && typeof listener.handleEvent === 'function')) return;
    const list = this._listeners.get(type) || [];
    if (!list.some((entry) => entry.listener === listener)) list.push({ listener, once: Boolean(options && options.once) });
    this._listeners.set(type, list);
  }

  removeEventListener(type, listener) {
    const list = this._listeners.get(type);
    if (list) this._listeners.set(type, list.filter((entry) => entry.listener !== listener));
  }

  dispatchEvent(event) {
    event.target = this;
    const handler = this[`on${event.type}`];
    if (typeof handler === 'function') handler.call(this, event);
    for (const entry of [...(this._listeners.get(event.type) || [])]) {
      if (entry.once) this.removeEventListener(event.type, entry.listener);
      if (typeof entry.listener === 'function') entry.listener.call(this, event);
      else entry.listener.handleEvent(event);
    }
    return !event.defaultPrevented;
  }
}

class AbortSignal extends EventTarget {
  constructor() {
    super();
    this.aborted = false;
    this.reason = undefined;
    this.onabort = null;
  }

  throwIfAborted() {
    if (this.aborted) throw this.reason;
  }

  static abort(reason) {
    const controller = new AbortController();
    controller.abort(reason);
    return controller.signal;
  }

  static timeout(ms) {
    const controller = new AbortController();
    globalThis.setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
    return controller.signal;
  }
}

class AbortController {
  constructor() {
    this.signal = new AbortSignal();
  }

  abort(reason = new DOMException('This operation was aborted', 'AbortError')) {
    if (this.signal.aborted) return;
    this.signal.aborted = true;
    this.signal.reason = reason;
    this.signal.dispatchEvent(new Event('abort'));
  }
}

/** The WHATWG FormData (what `new FormData()` is in Node; axios's Node build uses the form-data package). */
class FormData {
  constructor() {
    Object.defineProperty(this, '_entries', { value: [] });
  }

  append(name, value) {
    this._entries.push([String(name), typeof value === 'object' && value !== null ? value : String(value)]);
  }

  set(name, value) {
    this.delete(name);
    this.append(name, value);
  }

  delete(name) {
    const key = String(name);
    for (let i = this._entries.length - 1; i >= 0; i -= 1) if (this._entries[i][0] === key) this._entries.splice(i, 1);
  }

  get(name) {
    const found = this._entries.find(([key]) => key === String(name));
    return found ? found[1] : null;
  }

  getAll(name) {
    return this._entries.filter(([key]) => key === String(name)).map(([, value]) => value);
  }

  has(name) {
    return this._entries.some(([key]) => key === String(name));
  }

  forEach(callback, thisArg) {
    for (const [key, value] of this._entries) callback.call(thisArg, value, key, this);
  }

  * entries() {
    yield* this._entries.map((entry) => [...entry]);
  }

  * keys() {
    for (const [key] of this._entries) yield key;
  }

  * values() {
    for (const [, value] of this._entries) yield value;
  }

  [Symbol.iterator]() {
    return this.entries();
  }

  get [Symbol.toStringTag]() {
    return 'FormData';
  }
}

const origin = Date.now();
const performance = {
  timeOrigin: origin,
  now: () => Date.now() - origin,
  mark: () => undefined,
  measure: () => undefined,
};

function randomBytes(count) {
  const bytes = new Uint8Array(count);
  for (let i = 0; i < count; i += 1) bytes[i] = Math.floor(Math.random() * 256);
  return bytes;
}

function randomUUID() {
  const bytes = randomBytes(16);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const crypto = {
  getRandomValues(array) {
    const bytes = randomBytes(array.byteLength);
    new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(bytes);
    return array;
  },
  randomUUID,
};

/** `fetch` as on a machine without network: the promise rejects like Node's undici. */
function fetch() {
  const error = new TypeError('fetch failed');
  error.cause = Object.assign(new Error('network access is disabled in the wapii sandbox'), { code: 'ENETUNREACH' });
  return Promise.reject(error);
}

module.exports = {
  AbortController, AbortSignal, DOMException, Event, EventTarget, FormData, TextDecoder, TextEncoder,
  atob, btoa, crypto, fetch, performance, randomBytes, randomUUID,
};
