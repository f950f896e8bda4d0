'use strict';
/**
 * The wapii Node worker: executes extracted calls of one JavaScript library one after another and
 * reports the request each one issued. Started by wapii's sandbox supervisor (`wapii_core.sandbox`),
 * normally inside bubblewrap, as an unprivileged user, under rlimits, with Node's permission model
 * and `--frozen-intrinsics --disallow-code-generation-from-strings` (see `wapii_core/sandbox/node/pool.py`).
 *
 * Usage: node worker.js <runtime dir holding node_modules> <library: JSON>
 * where the library (`wapii_core.sandbox.node.NodeLibrary`) is `{"name", "dir", "hook", "finish",
 * "packages", "prelude", "warm_up", "version_of"}`: the adapter's directory holding its hook module
 * and (optionally) its finishing module, the npm packages a snippet may require, the source put
 * before every snippet, calls run once at start-up (each must issue a request), and the package
 * whose version the ready line reports. The finishing module runs here, in the worker's own realm,
 * on the kept request (JSON data only, never a snippet's object): `finish(request)` returns the
 * request as judged, or throws an Error whose message is the call's `runtime_error` detail (e.g.
 * fetch_js parses the URL with Node's own parser, which no snippet can patch).
 *
 * Protocol (JSON lines): on start the worker writes `{"ready": true, "node", "library", "version", "modules"}`.
 * Then, per input line `{"id": <int>, "code": <string>, "timeout_ms": <int>, "keep": "last"|"first"}`,
 * it writes one line `{"id", "request", "requests"}` (the kept request of the `requests` issued) or
 * `{"id", "error", "detail"}` with error "runtime_error", "no_request" or "timeout".
 * Each call runs in a fresh context that shares nothing with the worker or other calls (`run.js`),
 * so the worker never needs to restart between calls.
 *
 * A job with `"answers": true` has its requests answered (wapii_core/sandbox/dialogue.py): each request
 * the library's hook asks (`realm/session.js`) is written here, in the worker's realm, as the HTTP/1.1
 * message the supervisor reads (`{"id", "sent": base64}`; a fetch request finished by `finish` first,
 * as it is judged), and each answer line `{"id", "reply": base64}` (an HTTP/1.1 response) is parsed
 * here and handed to the run; `{"id", "end": detail}` ends the job as that runtime error. Such a job
 * runs to its end.
 */

const path = require('path');
const readline = require('readline');
const vm = require('vm');
const { blockNetwork } = require('./network');
const { buildKit } = require('./bundle');
const { NEVER, Run, settle } = require('./run');

const runtimeDir = process.argv[2];
if (!runtimeDir || !process.argv[3]) {
  process.stderr.write('usage: node worker.js <runtime dir> <library: JSON>\n');
  process.exit(2);
}
const library = JSON.parse(process.argv[3]);
const finish = library.finish ? require(path.join(library.dir, library.finish)).finish : null;

blockNetwork();
const built = buildKit(path.resolve(runtimeDir), library);
const kit = new vm.Script(built.source, { filename: 'wapii:kit', importModuleDynamically: NEVER });
const version = library.version_of
  ? require(path.join(path.resolve(runtimeDir), 'node_modules', library.version_of, 'package.json')).version : null;
const facts = {
  env: { ...process.env },
  execPath: process.execPath,
  platform: process.platform,
  arch: process.arch,
  version: process.version,
  versions: { ...process.versions },
  pid: process.pid,
  cwd: process.cwd(),
};


/** Characters of JSON an answer may hold: a bigger capture is reported as a runtime error. */
const MAX_ANSWER = 4 * 1024 * 1024;

function send(message) {
  let line = JSON.stringify(message);
  if (line.length > MAX_ANSWER) {
    line = JSON.stringify({ id: message.id, error: 'runtime_error', detail: `the captured request is larger than ${MAX_ANSWER} characters` });
  }
  process.stdout.write(`${line}\n`);
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const LINE_BREAKING = /[\r\n\0]/;

/** A string's bytes, each character one byte (a recorded body is a latin-1 string of its bytes). */
const latin1 = (text) => Buffer.from(String(text), 'latin1');

/** The request target as the wire channel writes it: bytes outside `!`..`~` percent-encoded (UTF-8). */
function target(url) {
  let out = '';
  for (const byte of Buffer.from(String(url), 'utf8')) {
    out += byte >= 0x21 && byte <= 0x7e ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Whether a header list's `Content-Type` is a URL-encoded form (as axios then sends an object body). */
function isForm(pairs) {
  return pairs.some(([name, value]) => String(name).toLowerCase() === 'content-type'
    && String(value).split(';')[0].trim().toLowerCase() === 'application/x-www-form-urlencoded');
}

/** A decoded form (axios's record) as the URL-encoded text sent: a list is one pair per item, a value
 * that is not a string its JSON text (`wapii_core/mock/configs.py` writes a config's form alike). */
function formText(data) {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(data)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== null && item !== undefined) form.append(key, typeof item === 'string' ? item : JSON.stringify(item));
    }
  }
  return form.toString();
}

/**
 * The HTTP/1.1 message of a request a hook recorded: `{url, method, headers: [[n, v]] | {n: v}, body?}`
 * (finished: the body a latin-1 string of its bytes) or axios's record (`params`, `data` as logged:
 * sent URL-encoded under a form's `Content-Type`, as axios sends it, else as JSON).
 * Throws for what a server would refuse to read (a method or header name that is no token, a value
 * that breaks its line).
 */
function wireMessage(recorded) {
  const request = finish !== null ? finish(recorded) : recorded;
  let url = String(request.url);
  if (request.params !== null && typeof request.params === 'object') {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(request.params)) query.append(key, typeof value === 'string' ? value : JSON.stringify(value));
    const text = query.toString();
    if (text) url += (url.includes('?') ? '&' : '?') + text;
  }
  const method = String(request.method || 'GET').toUpperCase();
  if (!TOKEN.test(method)) throw new Error(`invalid HTTP method ${JSON.stringify(method)}`);
  const pairs = Array.isArray(request.headers) ? request.headers : Object.entries(request.headers || {});
  let body = Buffer.alloc(0);
  if (typeof request.body === 'string') body = latin1(request.body);
  else if (request.data !== undefined && request.data !== null) {
    body = Buffer.from(typeof request.data === 'string' ? request.data
      : isForm(pairs) && typeof request.data === 'object' && !Array.isArray(request.data) ? formText(request.data)
        : JSON.stringify(request.data), 'utf8');
  }
  const lines = [`${method} ${target(url)} HTTP/1.1`];
  let host = false;
  for (const [name, value] of pairs) {
    const lower = String(name).toLowerCase();
    if (value === null || value === undefined || lower === 'content-length' || lower === 'transfer-encoding') continue;
    if (!TOKEN.test(String(name))) throw new Error(`invalid HTTP header name ${JSON.stringify(name)}`);
    if (LINE_BREAKING.test(String(value))) throw new Error(`invalid HTTP header value (header ${JSON.stringify(name)})`);
    host = host || lower === 'host';
    lines.push(`${name}: ${Buffer.from(String(value), 'utf8').toString('latin1')}`);
  }
  if (!host) {
    let authority = 'localhost';
    try {
      authority = new URL(url).host || authority;
    } catch { /* a relative URL: the responder reads it as sent */ }
    lines.push(`Host: ${authority}`);
  }
  lines.push(`Content-Length: ${body.length}`);
  return Buffer.concat([latin1(`${lines.join('\r\n')}\r\n\r\n`), body]);
}

/** An answer's HTTP/1.1 bytes as the run takes them: `{status, statusText, headers, body}` (body as UTF-8 text). */
function answerOf(bytes) {
  const end = bytes.indexOf('\r\n\r\n');
  const head = bytes.subarray(0, end < 0 ? bytes.length : end).toString('latin1').split('\r\n');
  const [, status, ...reason] = head[0].split(' ');
  const headers = head.slice(1).map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon), line.slice(colon + 1).trim()];
  });
  return { status: Number(status), statusText: reason.join(' '), headers, body: end < 0 ? '' : bytes.subarray(end + 4).toString('utf8') };
}

/** One answered job's side of the conversation with the supervisor (see the header comment). */
class Channel {
  constructor(id) {
    this.id = id;
    this.sent = []; // the sequence numbers of the requests sent, oldest first: answers come in that order
    this.replies = [];
    this.waiter = null;
    this.ended = null;
  }

  /** Sends one asked request (JSON `{seq, request}`); null, or the JSON answer that rejects it. */
  send(text) {
    const { seq, request } = JSON.parse(text);
    let message;
    try {
      message = wireMessage(request);
    } catch (error) {
      return JSON.stringify({ seq, error: `the request could not be sent: ${error && error.message}` });
    }
    this.sent.push(seq);
    send({ id: this.id, sent: message.toString('base64') });
    return null;
  }

  /** Takes one line of the supervisor for this job. */
  deliver(message) {
    if (typeof message.end === 'string') this.ended = message.end;
    else if (typeof message.reply === 'string' && this.sent.length > 0) {
      this.replies.push(JSON.stringify({ seq: this.sent.shift(), ...answerOf(Buffer.from(message.reply, 'base64')) }));
    }
    if (this.waiter !== null) this.waiter();
  }

  /** An answer already come (JSON text), or null. */
  take() {
    return this.replies.length > 0 ? this.replies.shift() : null;
  }

  /** The next answer within `ms` (null: none came, or the job was ended). */
  next(ms) {
    if (this.replies.length > 0 || this.ended !== null) return Promise.resolve(this.take());
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        resolve(null);
      }, ms);
      this.waiter = () => {
        clearTimeout(timer);
        this.waiter = null;
        resolve(this.take());
      };
    });
  }
}

let current = null;
let channel = null;
process.on('unhandledRejection', (reason) => {
  if (current) current.rejected(reason);
});
process.on('uncaughtException', (error) => {
  process.stderr.write(`wapii worker: uncaught exception outside a run: ${error && error.stack}\n`);
  process.exit(70);
});

/** Runs one snippet (its requests answered through `talk`, a Channel, unless null); never throws. */
async function execute(code, timeoutMs, keep, talk = null) {
  try {
    channel = talk;
    current = new Run(kit, JSON.stringify({ keep, facts, answers: talk !== null }), timeoutMs, library.prelude, talk);
    const outcome = await current.execute(code);
    await settle(); // the run's last rejections are reported to it, not to the next run
    if (finish === null || outcome.request === undefined) return outcome;
    try {
      return { request: finish(outcome.request), requests: outcome.requests };
    } catch (error) {
      return { error: 'runtime_error', detail: String(error && error.message) };
    }
  } catch (error) {
    return { error: 'runtime_error', detail: `wapii worker failure: ${error && error.message}` };
  } finally {
    current = null;
    channel = null;
  }
}

async function handle(job) {
  const talk = job.answers === true ? new Channel(job.id) : null;
  const outcome = await execute(String(job.code), Number(job.timeout_ms) || 2000, job.keep === 'first' ? 'first' : 'last', talk);
  send({ id: job.id, ...outcome });
}

async function start() {
  for (const code of library.warm_up) { // requests of every body kind: real runs find the kit compiled
    const outcome = await execute(code, 5000, 'last');
    if (!outcome.request) throw new Error(`warm-up call failed: ${JSON.stringify(outcome)}`);
  }
  let queue = Promise.resolve();
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  input.on('line', (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      process.stderr.write('wapii worker: ignoring a line that is not JSON\n');
      return;
    }
    if (message === null || typeof message !== 'object') return;
    if ('reply' in message || 'end' in message) {
      if (channel !== null && channel.id === message.id) channel.deliver(message); // the running job's answer
      return;
    }
    queue = queue.then(() => handle(message));
  });
  input.on('close', () => {
    queue.then(() => process.exit(0));
  });
  send({ ready: true, node: process.version, library: library.name, version, modules: built.modules });
}

start().catch((error) => {
  process.stderr.write(`wapii worker: start-up failed: ${error && error.stack}\n`);
  process.exit(70);
});
