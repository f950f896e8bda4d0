'use strict';
/**
 * The last step of a fetch capture, in the worker's own realm (see `wapii_core/sandbox/node/js/worker.js`):
 * what the hook (`hook.js`) recorded as plain data, turned into the request Node's fetch (undici)
 * sends, by code no program can reach:
 *
 * - the URL the program passed, parsed by Node's own WHATWG URL parser, as undici parses it. The
 *   realm's parser uses built-ins the program may have patched (`String.fromCharCode = ...` would
 *   make it turn `https://wrong.example/` into any URL). A URL Node cannot parse, or one with
 *   credentials, is the rejection fetch would have given (an unhandled one: the extracted call is
 *   run on its own);
 * - a form body (`{form: [[name, value]...]}`, a `URLSearchParams`'s entries) serialised by Node's
 *   own `URLSearchParams`, as undici does (`body.toString()`), and a multipart body (`{multipart:
 *   [[name, value]...], boundary}`, a `FormData`'s) written as undici writes one; other bodies are
 *   already their bytes (a latin-1 string). In the program's realm the serialisers would run with
 *   the program's `encodeURIComponent`, `String.prototype.replace`, `Array.prototype.join`, ...;
 * - `content-length`, the last header: the number of bytes of the body, `0` for a POST or PUT
 *   without one.
 */

/** The entries of a form as the hook records them; throws for anything else (the kit wrote it: a bug). */
function entries(list) {
  if (!Array.isArray(list) || !list.every((pair) => Array.isArray(pair) && pair.length === 2
    && typeof pair[0] === 'string' && typeof pair[1] === 'string')) {
    throw new Error('bad_capture: a form body that is not a list of [name, value] strings');
  }
  return list;
}

/** A FormData of string entries as undici writes it (`extractBody` of Node 20's undici). */
function multipart(list, boundary) {
  const escape = (text) => text.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');
  const normalizeLinefeeds = (text) => text.replace(/\r?\n|\r/g, '\r\n');
  let text = '';
  for (const [name, value] of entries(list)) {
    text += `--${boundary}\r\nContent-Disposition: form-data; name="${escape(normalizeLinefeeds(name))}"\r\n\r\n`
      + `${normalizeLinefeeds(value)}\r\n`;
  }
  return `${text}--${boundary}--\r\n`;
}

/** The bytes sent for a recorded body (a latin-1 string), or undefined without one. */
function bodyBytes(body) {
  if (body === undefined || typeof body === 'string') return body;
  if (body !== null && typeof body === 'object' && Object.keys(body).length === 1 && 'form' in body) {
    return Buffer.from(new URLSearchParams(entries(body.form)).toString(), 'utf8').toString('latin1');
  }
  if (body !== null && typeof body === 'object' && Object.keys(body).length === 2 && 'multipart' in body
    && typeof body.boundary === 'string' && /^----formdata-undici-0\d{11}$/.test(body.boundary)) {
    return Buffer.from(multipart(body.multipart, body.boundary), 'utf8').toString('latin1');
  }
  throw new Error('bad_capture: a body the fetch hook does not record');
}

/**
 * undici's checks of a request's headers before it dispatches it (`processHeader` of Node 20's
 * undici): `transfer-encoding`, `keep-alive`, `upgrade` and `expect` headers, a `connection` other
 * than `close` or `keep-alive`, and a `content-length` that is not the body's length make fetch
 * reject with `TypeError: fetch failed`; nothing is sent. Returns the program's own
 * `content-length` (the body's length, then), else null.
 */
function dispatcherChecks(headers, body) {
  const failed = (cause) => new Error(`unhandled rejection: TypeError: fetch failed (${cause})`);
  let written = null;
  for (const [name, value] of headers) {
    const lower = String(name).toLowerCase();
    if (lower === 'transfer-encoding' || lower === 'keep-alive' || lower === 'upgrade') {
      throw failed(`invalid ${lower} header`);
    }
    if (lower === 'expect') throw failed('expect header not supported');
    if (lower === 'connection' && !['close', 'keep-alive'].includes(String(value).toLowerCase())) {
      throw failed('invalid connection header');
    }
    if (lower === 'content-length') {
      const size = body === undefined ? 0 : body.length;
      if (!/^\d+$/.test(String(value)) || Number(value) !== size) {
        throw failed(`request body length (${size}) does not match the content-length header (${value})`);
      }
      written = String(value);
    }
  }
  return written;
}

/** undici's parse of each `referrer` the request was built with (`hook.js`'s `build`): one Node cannot
 * parse is the TypeError `new Request()` throws, and nothing is sent. */
function checkReferrers(referrers) {
  if (referrers === undefined) return;
  if (!Array.isArray(referrers) || !referrers.every((referrer) => typeof referrer === 'string')) {
    throw new Error('bad_capture: referrers that are not a list of strings');
  }
  for (const referrer of referrers) {
    try {
      new URL(referrer); // eslint-disable-line no-new
    } catch {
      throw new Error(`unhandled rejection: TypeError: Referrer "${referrer}" is not a valid URL.`);
    }
  }
}

function finish(capture) {
  const { referrers, ...request } = capture;
  let url;
  try {
    url = new URL(request.url);
  } catch {
    throw new Error(`unhandled rejection: TypeError: Failed to parse URL from ${request.url}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new Error(`unhandled rejection: TypeError: Request cannot be constructed from a URL that includes credentials: ${request.url}`);
  }
  checkReferrers(referrers);
  url.hash = '';
  const body = bodyBytes(request.body);
  const length = body !== undefined ? String(body.length) : request.method === 'POST' || request.method === 'PUT' ? '0' : null;
  const written = dispatcherChecks(request.headers, body);
  const headers = length === null || written !== null ? request.headers : [...request.headers, ['content-length', length]];
  const finished = { ...request, url: url.href, headers };
  if (body !== undefined) finished.body = body;
  return finished;
}

module.exports = { finish };
