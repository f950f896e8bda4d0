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

let current = null;
process.on('unhandledRejection', (reason) => {
  if (current) current.rejected(reason);
});
process.on('uncaughtException', (error) => {
  process.stderr.write(`wapii worker: uncaught exception outside a run: ${error && error.stack}\n`);
  process.exit(70);
});

/** Runs one snippet; never throws. */
async function execute(code, timeoutMs, keep) {
  try {
    current = new Run(kit, JSON.stringify({ keep, facts }), timeoutMs, library.prelude);
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
  }
}

async function handle(line) {
  let job;
  try {
    job = JSON.parse(line);
  } catch {
    process.stderr.write('wapii worker: ignoring a line that is not JSON\n');
    return;
  }
  const outcome = await execute(String(job.code), Number(job.timeout_ms) || 2000, job.keep === 'first' ? 'first' : 'last');
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
    queue = queue.then(() => handle(line));
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
