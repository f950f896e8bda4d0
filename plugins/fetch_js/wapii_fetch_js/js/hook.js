'use strict';
/**
 * WHATWG `fetch` in one run's context (the hook of `wapii_core/sandbox/node`, see its
 * `realm/session.js`), with `Headers`, `Request`, `Response`, and `URLSearchParams` and `FormData`
 * (`forms.js`), serialising a request the way
 * Node's own fetch (undici) puts it on the wire, and recording that serialisation: the URL as
 * parsed by the WHATWG URL parser (fragment removed), the method (`GET`, `POST`, ... upper-cased,
 * others as written), the header list in order and spelling (the program's headers, then the
 * body's `content-type`, then fetch's defaults: `accept`, `accept-language`, `sec-fetch-mode`,
 * `user-agent`, `accept-encoding`, `content-length`), and the body as sent (a string as UTF-8
 * text, `URLSearchParams` as a form, `FormData` as multipart, binary data as bytes, any other
 * object as `String(body)`). Errors are undici's (`Request with GET/HEAD method cannot have
 * body.`, an invalid header name or value, ...), as rejections; a URL that does not parse is the
 * worker's verdict (`finish.js`), as the unhandled rejection it is in an extracted call.
 * Node's fetch is not reachable from a context, so this is its re-implementation for the
 * sandbox; `tests/test_execute.py` compares it with the real one byte for byte.
 *
 * The request is recorded, and answered with `200` and the body `{}` (`application/json`), in a
 * microtask after `fetch()` returns, as undici sends it after the call (a program that exits
 * synchronously sends nothing). When the run's requests are answered (`ask`, see
 * `realm/session.js`), the `Response` holds the responder's answer instead (status, status text,
 * headers, body). Everything the recording uses was saved when the run began
 * (`wapii-kit/primordials` and the bindings below), so a program that patches built-ins changes
 * only what it sends, never the record of what was sent: the record holds strings built by this
 * module, read back into the kit's own nodes.
 *
 * The URL is recorded as the string the program passed; the worker parses it with Node's own
 * parser (`finish.js`), since the realm's parser runs with the program's built-ins. Likewise a
 * `URLSearchParams` or `FormData` body is recorded as its entries (`forms.js` keeps them where
 * the program cannot reach them), `{form: [[name, value]...]}` or `{multipart: [[name, value]...],
 * boundary}`, and the worker writes the bytes undici sends for them (`finish.js`), as it adds
 * `content-length` to every record.
 *
 * Besides the request, the record holds `hints`: the number and boolean values of query
 * parameters the run passed to `new URLSearchParams({...})` or `new URLSearchParams([[k, v]])`,
 * taken only from a URLSearchParams whose own serialisation the request's URL holds (one never
 * written into the URL sent gives no hint).
 * The reference comparison mode judges query values as the code wrote them (metrics.md), and
 * for fetch the only place where code writes a typed query value is there; the normaliser uses a
 * hint only where its value is exactly what was sent, so a hint can choose between `50` and `"50"`
 * and never change a byte that was sent.
 */

const {
  ArrayIsArray, ObjectFreeze, ObjectHasOwn, ReflectApply, ReflectGetOwnPropertyDescriptor, ReflectGetPrototypeOf,
  ReflectOwnKeys, RegExpPrototypeExec, SafeTypeError, SafeWeakMap, StringCtor, StringPrototypeCharCodeAt,
  StringPrototypeSlice, WeakMapPrototypeGet, WeakMapPrototypeSet, uncurryThis,
} = require('wapii-kit/primordials');
const { arrayNode, objectNode } = require('wapii-kit/json_nodes');
const web = require('wapii-kit/web');
const { createForms } = require('./forms');
const { newList, push, removeAt } = require('./lists');

const StringPrototypeToLowerCase = uncurryThis(String.prototype.toLowerCase);
const StringPrototypeToUpperCase = uncurryThis(String.prototype.toUpperCase);
const StringPrototypeIndexOf = uncurryThis(String.prototype.indexOf);
const StringFromCharCode = String.fromCharCode;
const MathRandom = Math.random;
const MathFloor = Math.floor;
const SavedPromise = Promise;
const PromisePrototypeThen = uncurryThis(Promise.prototype.then);
const ArrayBufferIsView = ArrayBuffer.isView;
const ArrayBufferPrototype = ArrayBuffer.prototype;
const ArrayBufferByteLength = uncurryThis(ReflectGetOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get);
const SavedUint8Array = Uint8Array;
const SymbolIterator = Symbol.iterator;
const SymbolToStringTag = Symbol.toStringTag;
const ObjectDefineProperty = Object.defineProperty;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const NORMALISED_METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT'];
const FORBIDDEN_METHODS = ['CONNECT', 'TRACE', 'TRACK'];
/** The members of WebIDL's `RequestInit` (undici's, in Node 20), in the order its conversion reads them. */
const REQUEST_INIT_MEMBERS = ['body', 'cache', 'credentials', 'dispatcher', 'duplex', 'headers', 'integrity', 'keepalive',
  'method', 'mode', 'redirect', 'referrer', 'referrerPolicy', 'signal', 'window'];
/** WebIDL's enumerations of `RequestInit` (undici's, in Node 20): any other value is a TypeError. */
const REQUEST_INIT_ENUMS = [
  ['cache', ['default', 'no-store', 'reload', 'no-cache', 'force-cache', 'only-if-cached']],
  ['credentials', ['omit', 'same-origin', 'include']],
  ['duplex', ['half']],
  ['mode', ['same-origin', 'no-cors', 'cors', 'navigate', 'websocket']],
  ['redirect', ['follow', 'error', 'manual']],
  ['referrerPolicy', ['', 'no-referrer', 'no-referrer-when-downgrade', 'same-origin', 'origin', 'strict-origin',
    'origin-when-cross-origin', 'strict-origin-when-cross-origin', 'unsafe-url']],
];
/** fetch's own headers, appended when the program set none of that name (undici in Node 20). */
const DEFAULT_HEADERS = [['accept', '*/*'], ['accept-language', '*'], ['sec-fetch-mode', 'cors'], ['user-agent', 'node'],
  ['accept-encoding', 'gzip, deflate']];

const isToken = (text) => RegExpPrototypeExec(TOKEN, text) !== null;
const includes = (list, value) => {
  for (let i = 0; i < list.length; i++) if (list[i] === value) return true;
  return false;
};

/** `text` with HTTP whitespace (tab, LF, CR, space) removed at both ends. */
function trimHttp(text) {
  let start = 0;
  let end = text.length;
  const space = (code) => code === 9 || code === 10 || code === 13 || code === 32;
  while (start < end && space(StringPrototypeCharCodeAt(text, start))) start++;
  while (end > start && space(StringPrototypeCharCodeAt(text, end - 1))) end--;
  return StringPrototypeSlice(text, start, end);
}

/** WebIDL ByteString: a string whose characters are all below 256. */
function byteString(value) {
  const text = StringCtor(value);
  for (let i = 0; i < text.length; i++) {
    const code = StringPrototypeCharCodeAt(text, i);
    if (code > 255) {
      throw new SafeTypeError(`Cannot convert argument to a ByteString because the character at index ${i} has a value of ${code} which is greater than 255.`);
    }
  }
  return text;
}

/** The UTF-8 bytes of a string as a latin-1 string (one character per byte; lone surrogates as U+FFFD). */
function utf8(text) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    let code = StringPrototypeCharCodeAt(text, i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length
      && (StringPrototypeCharCodeAt(text, i + 1) & 0xfc00) === 0xdc00) {
      code = 0x10000 + ((code - 0xd800) << 10) + (StringPrototypeCharCodeAt(text, i + 1) - 0xdc00);
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      code = 0xfffd;
    }
    if (code < 0x80) out += StringFromCharCode(code);
    else if (code < 0x800) out += StringFromCharCode(0xc0 | (code >> 6), 0x80 | (code & 63));
    else if (code < 0x10000) out += StringFromCharCode(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    else out += StringFromCharCode(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
  }
  return out;
}

/** The bytes of an ArrayBuffer or a view of one, as a latin-1 string. */
function bytesOf(value) {
  const view = ArrayBufferIsView(value) ? new SavedUint8Array(value.buffer, value.byteOffset, value.byteLength)
    : new SavedUint8Array(value, 0, ArrayBufferByteLength(value));
  let out = '';
  for (let i = 0; i < view.length; i++) out += StringFromCharCode(view[i]);
  return out;
}

function inherits(value, prototype) {
  for (let p = ReflectGetPrototypeOf(value); p !== null; p = ReflectGetPrototypeOf(p)) if (p === prototype) return true;
  return false;
}

module.exports = function setUp({ require, record, ask }) {
  const ForeignSearchParams = require('url').URLSearchParams; // taken now: the program may replace the module's member

  /**
   * Each serialisation of a URLSearchParams in this run: its text and the values it was built from
   * (see the module's documentation); a request takes the typed ones of those whose text its URL holds.
   */
  const written = newList();
  const hint = (text, typed) => {
    push(written, { __proto__: null, text, typed });
  };

  const { URLSearchParams, FormData, entriesOf } = createForms({ hint, foreignPrototype: () => ForeignSearchParams.prototype });
  /**
   * How undici serialises a form body: `body.toString()` of a URLSearchParams, `for (const [name,
   * value] of body)` of a FormData. While a body's method is the class's own (taken now, before the
   * program runs), what is sent is its entries; one the program replaced sends whatever it returns,
   * which no record written from the entries would show.
   */
  const SEARCH_TO_STRING = [URLSearchParams.prototype.toString, ForeignSearchParams.prototype.toString];
  const FORM_DATA_ITERATOR = FormData.prototype[SymbolIterator];

  const lists = new SafeWeakMap(); // Headers -> its header list (`lists.js`) of {lower, name, value}

  function listOf(headers) {
    const list = headers !== null && typeof headers === 'object' ? WeakMapPrototypeGet(lists, headers) : undefined;
    if (list === undefined) throw new SafeTypeError('Illegal invocation');
    return list;
  }

  function find(list, lower) {
    for (let i = 0; i < list.length; i++) if (list[i].lower === lower) return i;
    return -1;
  }

  function checked(name, value, what) {
    const headerName = byteString(name);
    const headerValue = trimHttp(byteString(value));
    if (!isToken(headerName)) throw new SafeTypeError(`Headers.${what}: "${headerName}" is an invalid header name.`);
    for (let i = 0; i < headerValue.length; i++) {
      const code = StringPrototypeCharCodeAt(headerValue, i);
      if (code === 0 || code === 10 || code === 13) {
        throw new SafeTypeError(`Headers.${what}: "${headerValue}" is an invalid header value.`);
      }
    }
    return { __proto__: null, name: headerName, lower: StringPrototypeToLowerCase(headerName), value: headerValue };
  }

  function append(list, name, value) {
    const entry = checked(name, value, 'append');
    const at = find(list, entry.lower);
    if (at === -1) push(list, entry);
    else list[at].value = `${list[at].value}, ${entry.value}`;
  }

  function fill(list, init) {
    if (init === undefined || init === null) {
      if (init === null) throw new SafeTypeError("Headers constructor: Expected init to be a record or sequence");
      return;
    }
    if (typeof init !== 'object' && typeof init !== 'function') {
      throw new SafeTypeError('Headers constructor: Expected init to be a record or sequence');
    }
    const method = init[SymbolIterator]; // read once, and iterated with (WebIDL's sequence conversion)
    const own = WeakMapPrototypeGet(lists, init);
    if (own !== undefined && method === Headers.prototype.entries) { // undici's HeadersInit: a Headers whose iteration is its own
      for (let i = 0; i < own.length; i++) append(list, own[i].name, own[i].value);
      return;
    }
    if (typeof method === 'function') { // any other iterable, a Headers whose iterator the program replaced among them
      const iterator = ReflectApply(method, init, []);
      const next = iterator.next;
      for (let step = ReflectApply(next, iterator, []); !step.done; step = ReflectApply(next, iterator, [])) {
        const items = [...step.value];
        if (items.length !== 2) {
          throw new SafeTypeError(`Headers constructor: expected name/value pair to be length 2, found ${items.length}.`);
        }
        append(list, items[0], items[1]);
      }
      return;
    }
    const keys = ReflectOwnKeys(init);
    for (let i = 0; i < keys.length; i++) {
      const slot = typeof keys[i] === 'string' ? ReflectGetOwnPropertyDescriptor(init, keys[i]) : undefined;
      if (slot !== undefined && slot.enumerable) append(list, keys[i], init[keys[i]]);
    }
  }

  class Headers {
    constructor(init = undefined) {
      const list = newList();
      WeakMapPrototypeSet(lists, this, list);
      fill(list, init);
    }

    append(name, value) {
      append(listOf(this), name, value);
    }

    set(name, value) {
      const list = listOf(this);
      const entry = checked(name, value, 'set');
      const at = find(list, entry.lower);
      if (at === -1) push(list, entry);
      else list[at] = entry;
    }

    delete(name) {
      const list = listOf(this);
      const at = find(list, StringPrototypeToLowerCase(byteString(name)));
      if (at !== -1) removeAt(list, at);
    }

    get(name) {
      const list = listOf(this);
      const at = find(list, StringPrototypeToLowerCase(byteString(name)));
      return at === -1 ? null : list[at].value;
    }

    has(name) {
      return find(listOf(this), StringPrototypeToLowerCase(byteString(name))) !== -1;
    }

    forEach(callback, thisArg = undefined) {
      for (const [name, value] of this.entries()) ReflectApply(callback, thisArg, [value, name, this]);
    }

    /** The header list sorted by lower-cased name (stable), as `[name, value]` pairs. */
    * entries() {
      const own = listOf(this);
      const sorted = newList();
      for (let i = 0; i < own.length; i++) {
        let j = sorted.length;
        push(sorted, own[i]);
        while (j > 0 && sorted[j - 1].lower > own[i].lower) {
          sorted[j] = sorted[j - 1];
          j--;
        }
        sorted[j] = own[i];
      }
      for (let i = 0; i < sorted.length; i++) yield [sorted[i].lower, sorted[i].value];
    }

    * keys() {
      for (const [name] of this.entries()) yield name;
    }

    * values() {
      for (const [, value] of this.entries()) yield value;
    }

    get [SymbolToStringTag]() {
      return 'Headers';
    }
  }
  // One function, as in undici, whose HeadersInit conversion reads a Headers's own list only while its
  // iterator is `Headers.prototype.entries`, and otherwise iterates it (what a replaced iterator yields is sent).
  ObjectDefineProperty(Headers.prototype, SymbolIterator, { value: Headers.prototype.entries, writable: true, configurable: true });

  /** A latin-1 string of random digits (undici's boundary takes 11). */
  const digits = (count) => {
    let out = '';
    for (let i = 0; i < count; i++) out += StringCtor(MathFloor(MathRandom() * 10));
    return out;
  };

  /** The entries of a form body as a node: `[[name, value]...]`. */
  function entryNodes(list) {
    const items = arrayNode();
    for (let i = 0; i < list.length; i++) {
      const pair = arrayNode();
      pair.items[0] = list[i].name;
      pair.items[1] = list[i].value;
      pair.length = 2;
      items.items[i] = pair;
    }
    items.length = list.length;
    return items;
  }

  /**
   * The body as recorded, `{node, type, refused?}`: `node` a latin-1 string of the bytes sent, or for
   * a form its entries (`{form}`, `{multipart, boundary}`: the worker writes the bytes, see
   * `finish.js`), or null where it cannot be read as data (`refused` says why); `type` the content
   * type it implies, or null.
   */
  function extractBody(body) {
    if (typeof body === 'string') return { __proto__: null, node: utf8(body), type: 'text/plain;charset=UTF-8' };
    const form = entriesOf(body);
    const refuse = (why, type) => ({ __proto__: null, node: null, type, refused: why });
    if (form !== undefined && form.kind !== 'multipart' && !includes(SEARCH_TO_STRING, body.toString)) {
      return refuse('a URLSearchParams body whose toString the program replaced', 'application/x-www-form-urlencoded;charset=UTF-8');
    }
    if (form !== undefined && form.kind === 'multipart' && body[SymbolIterator] !== FORM_DATA_ITERATOR) {
      return refuse('a FormData body whose iterator the program replaced', null);
    }
    if (form !== undefined && form.kind === 'form') {
      const node = objectNode();
      node.members.form = entryNodes(form.list);
      return { __proto__: null, node, type: 'application/x-www-form-urlencoded;charset=UTF-8' };
    }
    if (form !== undefined && form.kind === 'multipart') {
      const boundary = `----formdata-undici-0${digits(11)}`;
      const node = objectNode();
      node.members.multipart = entryNodes(form.list);
      node.members.boundary = boundary;
      return { __proto__: null, node, type: `multipart/form-data; boundary=${boundary}` };
    }
    if (form !== undefined) return refuse('a URLSearchParams body whose entries are not plain data', 'application/x-www-form-urlencoded;charset=UTF-8');
    if (body !== null && typeof body === 'object' && (ArrayBufferIsView(body) || inherits(body, ArrayBufferPrototype))) {
      return { __proto__: null, node: bytesOf(body), type: null };
    }
    return { __proto__: null, node: utf8(StringCtor(body)), type: 'text/plain;charset=UTF-8' };
  }

  const requests = new SafeWeakMap(); // Request -> {url, method, list, body}

  /**
   * The URL as the program passed it (`String(input)`, as fetch converts it). Whether it parses,
   * and what it is sent as, is decided by Node's own parser in the worker (`finish.js`): the
   * realm's parser runs with the program's built-ins.
   */
  function parseUrl(input) {
    return StringCtor(input);
  }

  function normaliseMethod(value) {
    const method = byteString(value);
    if (!isToken(method)) throw new SafeTypeError(`'${method}' is not a valid HTTP method.`);
    const upper = StringPrototypeToUpperCase(method);
    if (includes(FORBIDDEN_METHODS, upper)) throw new SafeTypeError(`'${method}' HTTP method is unsupported.`);
    return includes(NORMALISED_METHODS, upper) ? upper : method;
  }

  /**
   * The members of a `RequestInit` as WebIDL's dictionary conversion reads them: each once, in the
   * dictionary's (alphabetical) order, so that a getter answering differently on a later read, or
   * one changing what another member's getter answers, sees what undici's conversion shows it.
   */
  function readInit(options) {
    const read = { __proto__: null };
    for (let i = 0; i < REQUEST_INIT_MEMBERS.length; i++) read[REQUEST_INIT_MEMBERS[i]] = options[REQUEST_INIT_MEMBERS[i]];
    return read;
  }

  /**
   * The checks of `new Request()` that undici makes on a converted `RequestInit` (WebIDL's enum and
   * interface conversions, then the constructor's own): a member it refuses throws its TypeError, and
   * fetch rejects without sending anything.
   */
  function checkInit(read) {
    for (let i = 0; i < REQUEST_INIT_ENUMS.length; i++) {
      const [name, accepted] = REQUEST_INIT_ENUMS[i];
      if (read[name] === undefined) continue;
      const value = StringCtor(read[name]);
      if (!includes(accepted, value)) {
        throw new SafeTypeError(`Failed to construct 'Request': ${value} is not an accepted type for ${name}.`);
      }
      read[name] = value;
    }
    if (read.referrer !== undefined) { // a USVString; parsed as a URL by the worker (see `build`)
      if (typeof read.referrer === 'symbol') throw new SafeTypeError('Cannot convert a Symbol value to a string');
      read.referrer = StringCtor(read.referrer);
    }
    if (read.signal !== undefined && read.signal !== null
      && (typeof read.signal !== 'object' || !inherits(read.signal, web.AbortSignal.prototype))) {
      throw new SafeTypeError("Failed to construct 'Request': member signal is not of type AbortSignal.");
    }
    if (read.window !== undefined && read.window !== null) {
      throw new SafeTypeError("Failed to construct 'Request': RequestInit: Expected window to be null.");
    }
    if (read.mode === 'navigate') throw new SafeTypeError("Failed to construct 'Request': invalid request mode navigate.");
    if (read.cache === 'only-if-cached' && read.mode !== 'same-origin') {
      throw new SafeTypeError("Failed to construct 'Request': 'only-if-cached' can be set only with 'same-origin' mode");
    }
  }

  /**
   * The request `new Request(input, init)` describes: `{url, method, list, body, signal, referrers}`;
   * throws undici's TypeErrors. Each member of `init` is read once (`readInit`), as fetch reads it.
   *
   * `referrers`: every non-empty `referrer` given to build this request (the base Request's too).
   * undici parses a referrer with Node's URL parser and throws `Referrer "..." is not a valid URL.`
   * before sending; the realm's parser runs with the program's built-ins, so, like the URL, each is
   * recorded and parsed by the worker (`finish.js`), which refuses the request when one does not
   * parse (a Request whose own construction Node refuses is never sent, whatever init follows).
   */
  function build(input, init) {
    const base = input !== null && typeof input === 'object' ? WeakMapPrototypeGet(requests, input) : undefined;
    const options = init === undefined || init === null ? {} : init;
    if (typeof options !== 'object' && typeof options !== 'function') {
      throw new SafeTypeError(`Request constructor: Expected ${options} to be one of: Null, Undefined, Object.`); // a symbol throws, as in undici
    }
    const url = base !== undefined ? base.url : parseUrl(input);
    const read = readInit(options);
    checkInit(read);
    const method = read.method !== undefined ? normaliseMethod(read.method) : base !== undefined ? base.method : 'GET';
    const list = newList();
    if (read.headers !== undefined) fill(list, read.headers);
    else if (base !== undefined) for (let i = 0; i < base.list.length; i++) push(list, { __proto__: null, ...base.list[i] });
    let body = base !== undefined ? base.body : null;
    if (read.body !== undefined && read.body !== null) {
      if (method === 'GET' || method === 'HEAD') throw new SafeTypeError('Request with GET/HEAD method cannot have body.');
      body = extractBody(read.body);
      if (body.type !== null && find(list, 'content-type') === -1) push(list, checked('content-type', body.type, 'append'));
    } else if (read.body === null) {
      body = null;
    }
    const referrers = newList();
    if (base !== undefined) for (let i = 0; i < base.referrers.length; i++) push(referrers, base.referrers[i]);
    if (read.referrer !== undefined && read.referrer !== '') push(referrers, read.referrer);
    return { __proto__: null, url, method, list, body, signal: read.signal, referrers };
  }

  class Request {
    constructor(input, init = undefined) {
      WeakMapPrototypeSet(requests, this, build(input, init));
    }

    get url() {
      return WeakMapPrototypeGet(requests, this).url;
    }

    get method() {
      return WeakMapPrototypeGet(requests, this).method;
    }

    get headers() {
      const headers = new Headers();
      const list = listOf(headers);
      const own = WeakMapPrototypeGet(requests, this).list;
      for (let i = 0; i < own.length; i++) push(list, { __proto__: null, ...own[i] });
      return headers;
    }
  }

  class Response {
    constructor(body = null, init = {}) {
      const text = body === null || body === undefined ? '' : StringCtor(body);
      ObjectDefineProperty(this, '_text', { value: text });
      this.status = init.status === undefined ? 200 : init.status;
      this.statusText = init.statusText === undefined ? '' : StringCtor(init.statusText);
      this.ok = this.status >= 200 && this.status < 300;
      this.headers = new Headers(init.headers);
      this.redirected = false;
      this.type = 'default';
      this.url = '';
      this.bodyUsed = false;
    }

    text() {
      this.bodyUsed = true;
      return SavedPromise.resolve(this._text);
    }

    json() {
      return this.text().then((text) => JSON.parse(text));
    }

    arrayBuffer() {
      return this.text().then((text) => new TextEncoder().encode(text).buffer);
    }

    clone() {
      return new Response(this._text, this);
    }
  }

  /**
   * The record of one request as sent, but for `content-length` (written by the worker with the
   * body's bytes): a node of `{url, method, headers: [[name, value]], body?, hints}`.
   */
  function recorded(request) {
    const node = objectNode();
    node.members.url = request.url;
    node.members.method = request.method;
    const list = newList();
    for (let i = 0; i < request.list.length; i++) push(list, request.list[i]);
    const has = (lower) => {
      for (let i = 0; i < list.length; i++) if (list[i].lower === lower) return true;
      return false;
    };
    for (let i = 0; i < DEFAULT_HEADERS.length; i++) {
      const lower = DEFAULT_HEADERS[i][0];
      const value = DEFAULT_HEADERS[i][1];
      if (!has(lower)) push(list, { __proto__: null, name: lower, lower, value });
    }
    const headers = arrayNode();
    for (let i = 0; i < list.length; i++) {
      const pair = arrayNode();
      pair.items[0] = list[i].name;
      pair.items[1] = list[i].value;
      pair.length = 2;
      headers.items[i] = pair;
    }
    headers.length = list.length;
    node.members.headers = headers;
    if (request.body !== null) node.members.body = request.body.node;
    if (request.referrers.length > 0) {
      const referrers = arrayNode();
      for (let i = 0; i < request.referrers.length; i++) referrers.items[i] = request.referrers[i];
      referrers.length = request.referrers.length;
      node.members.referrers = referrers;
    }
    const copied = objectNode();
    const url = StringCtor(request.url);
    for (let i = 0; i < written.length; i++) {
      const { text, typed } = written[i];
      if (text === '' || StringPrototypeIndexOf(url, text) === -1) continue;
      for (let j = 0; j < typed.length; j++) {
        const value = typed[j][1];
        if (typeof value === 'number' || typeof value === 'boolean') copied.members[StringCtor(typed[j][0])] = value;
      }
    }
    node.members.hints = copied;
    return node;
  }

  function fetch(input, init = undefined) {
    let request;
    try {
      request = build(input, init);
      if (request.signal && request.signal.aborted) {
        throw new web.DOMException('This operation was aborted', 'AbortError');
      }
    } catch (error) {
      return SavedPromise.reject(error);
    }
    const node = recorded(request);
    const captured = request.body !== null && request.body.node === null
      ? { __proto__: null, refused: `bad_capture: ${request.body.refused}` }
      : { __proto__: null, request: node };
    return PromisePrototypeThen(SavedPromise.resolve(), () => {
      record(captured);
      const answered = ask(captured);
      if (answered === undefined) {
        return new Response('{}', { status: 200, statusText: 'OK', headers: { 'content-type': 'application/json' } });
      }
      return PromisePrototypeThen(answered, (answer) => new Response(answer.body, {
        status: answer.status, statusText: answer.statusText, headers: answer.headers,
      }));
    });
  }

  const bindings = ObjectFreeze({ __proto__: null, fetch, Headers, Request, Response, URLSearchParams, FormData });
  for (const name of ['fetch', 'Headers', 'Request', 'Response', 'URLSearchParams', 'FormData']) {
    ObjectDefineProperty(globalThis, name, { value: bindings[name], writable: true, configurable: true, enumerable: false });
  }
  return bindings;
};
