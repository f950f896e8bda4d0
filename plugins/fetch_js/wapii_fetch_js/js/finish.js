'use strict';
/**
 * The last step of a fetch capture, in the worker's own realm (see `wapii_core/sandbox/node/js/worker.js`):
 * the URL the program passed, parsed by Node's own WHATWG URL parser, as undici parses it.
 *
 * The hook (`hook.js`) runs in the program's context, where the URL parser (the realm's
 * whatwg-url) uses built-ins the program may have patched: `String.fromCharCode = ...` would make
 * it turn `https://wrong.example/` into any URL. Node's fetch parses with its own parser, which no
 * program can reach; so does this step, on the string the hook recorded. A URL Node cannot parse,
 * or one with credentials, is the rejection fetch would have given (an unhandled one: the extracted
 * call is run on its own).
 */

function finish(request) {
  let url;
  try {
    url = new URL(request.url);
  } catch {
    throw new Error(`unhandled rejection: TypeError: Failed to parse URL from ${request.url}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new Error(`unhandled rejection: TypeError: Request cannot be constructed from a URL that includes credentials: ${request.url}`);
  }
  url.hash = '';
  return { ...request, url: url.href };
}

module.exports = { finish };
