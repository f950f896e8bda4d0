'use strict';
/**
 * The wapii axios_js worker: executes extracted axios calls one after another and reports the
 * request each one issued.
 *
 * Usage: node worker.js <runtime dir holding node_modules with axios and axios-mock-adapter>
 *
 * Protocol (JSON lines): on start the worker writes `{"ready": true, "node": ..., "axios": ...}`.
 * Then, per input line `{"id": <int>, "code": <string>, "timeout_ms": <int>, "keep": "last"|"first"}`,
 * it writes one line `{"id", "request", "requests"}` (the kept request of the `requests` issued) or
 * `{"id", "error", "detail"}` (error: "runtime_error" or "no_request"),
 * plus `"restart": true` when the run left work pending (a timeout, an exit, a failure with timers
 * still set): the worker then exits so that nothing of that run can touch the next one.
 */

const fs = require('fs');
const path = require('path');
const readline = require('readline');
const { createRequire } = require('module');
const { IntegrityGuard } = require('./integrity');
const { blockNetwork } = require('./network');
const { Run } = require('./run');

const runtimeDir = process.argv[2];
if (!runtimeDir) {
  process.stderr.write('usage: node worker.js <runtime dir>\n');
  process.exit(2);
}

const hostRequire = createRequire(path.join(path.resolve(runtimeDir), 'package.json'));
blockNetwork();
const env = {
  axios: hostRequire('axios'),
  MockAdapter: hostRequire('axios-mock-adapter'),
  fs,
  hostRequire,
};

const BUILTINS = [Object, Array, Function, String, Number, Boolean, Symbol, BigInt, Promise, RegExp,
  Error, TypeError, Date, Map, Set, WeakMap, WeakSet, ArrayBuffer, Uint8Array, Buffer];
const watched = [
  [globalThis, 0],
  ...BUILTINS.map((builtin) => [builtin.prototype, 0]),
  ...BUILTINS.map((builtin) => [builtin, 0]),
  [JSON, 0],
  [Math, 0],
  [Reflect, 0],
  [env.axios, 2],
  [env.MockAdapter, 2],
  [fs, 0],
];
let guard = null; // created after the warm-up, which also materialises Node's lazily defined globals

/** Requests of every body kind, run once at start-up so that real runs find everything loaded. */
const WARM_UP = [
  "axios.get('https://example.com/a?b=1', { headers: { Authorization: 'Bearer t' }, params: { c: 2 } });",
  "axios.post('https://example.com/a', { b: [1, { c: 'd' }] });",
  "axios.post('https://example.com/a', { b: 'c' }, { headers: { 'Content-Type': 'multipart/form-data' } });",
  "axios.put('https://example.com/a', { b: { c: 'd' } }, { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });",
  "axios.delete('https://example.com/a', { data: new URLSearchParams({ b: 'c' }) });",
];

const protocolOut = process.stdout;
function send(message, then) {
  protocolOut.write(`${JSON.stringify(message)}\n`, then);
}

let current = null;
process.on('unhandledRejection', (reason) => {
  if (current) current.onUnhandledRejection(reason);
});
process.on('uncaughtException', (error) => {
  if (current) {
    current.onUncaughtException(error);
  } else {
    process.stderr.write(`wapii worker: uncaught exception outside a run: ${error && error.stack}\n`);
  }
});

/** Active resources (handles and requests) by type: what keeps a Node process alive. */
function activeResources() {
  const counts = new Map();
  for (const type of process.getActiveResourcesInfo()) {
    counts.set(type, (counts.get(type) || 0) + 1);
  }
  return counts;
}

/** Whether nothing beyond the worker's own resources is pending (the process would exit now). */
function idle(baseline) {
  for (const [type, count] of activeResources()) {
    if (count > (baseline.get(type) || 0)) return false;
  }
  return true;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const pause = () => new Promise((resolve) => setTimeout(resolve, 1));

/** Waits until the run ends, goes idle or passes its deadline; true when nothing is left pending. */
async function settle(run, baseline) {
  for (;;) {
    await nextTurn(); // host microtasks, nextTicks and rejection tracking have run by now
    run.pump();
    if (run.ended || idle(baseline)) break;
    if (Date.now() >= run.deadline) {
      run.fail(`timeout after ${run.timeoutMs} ms`);
      break;
    }
    await pause();
  }
  run.finish();
  return idle(baseline);
}

async function handle(line) {
  let job;
  try {
    job = JSON.parse(line);
  } catch {
    process.stderr.write(`wapii worker: ignoring a line that is not JSON\n`);
    return;
  }
  let message;
  let clean;
  try {
    const baseline = activeResources();
    const run = new Run(env, job.timeout_ms || 2000, job.keep === 'first' ? 'first' : 'last');
    current = run;
    run.start(String(job.code));
    clean = (await settle(run, baseline)) && (guard === null || guard.intact());
    message = { id: job.id, ...run.outcome() };
  } catch (error) {
    message = { id: job.id, error: 'runtime_error', detail: `wapii worker failure: ${error && error.message}` };
    clean = false;
  } finally {
    current = null;
  }
  if (!clean) {
    send({ ...message, restart: true }, () => process.exit(0));
    return;
  }
  send(message);
}

let queue = Promise.resolve();
async function start() {
  for (const code of WARM_UP) {
    const run = new Run(env, 5000);
    run.start(code);
    await settle(run, activeResources());
  }
  guard = new IntegrityGuard(watched);
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  input.on('line', (line) => {
    queue = queue.then(() => handle(line));
  });
  input.on('close', () => {
    queue.then(() => process.exit(0));
  });
  send({ ready: true, node: process.version, axios: env.axios.VERSION });
}

start();
