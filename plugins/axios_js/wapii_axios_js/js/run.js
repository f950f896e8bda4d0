'use strict';
/**
 * One execution of one snippet, in a fresh `vm` context that looks to the snippet like the
 * reference pipeline's `node -` script: the mock's top-level names (`axios`, `MockAdapter`, `fs`,
 * `mock`) are declared before the snippet in the same script, `require`, `module`, `exports`,
 * `__filename`, `__dirname`, `process`, `console`, `Buffer`, timers, `URLSearchParams`,
 * `FormData`, ... are globals (`globals.js`). `axios` is a fresh instance per run (nothing a
 * snippet does to its defaults or interceptors survives it) whose adapter is axios-mock-adapter,
 * answering every request with 200 after normalising and logging its config, as the reference did.
 *
 * The run ends the way a Node process would: when nothing it started is pending any more, or
 * with code 1 on a syntax error, an uncaught exception or an unhandled rejection, or on
 * `process.exit(code)`. Synchronous code and the context's own microtasks run under vm's timeout;
 * callbacks of timers the snippet set run through a small script in the context so that they are
 * bounded by the same deadline. Anything still pending at the deadline makes the run a timeout.
 */

const vm = require('vm');
const { normaliseCapturedConfig } = require('./capture');
const { ExitSignal, snippetGlobals } = require('./globals');

/** The keys of the logged config that the judging reads (metrics.md §3; `path_params` may be user-set). */
const LOGGED_KEYS = ['url', 'method', 'headers', 'params', 'data', 'path_params'];

const PRELUDE = 'const axios = __wapii__.axios, MockAdapter = __wapii__.MockAdapter, '
  + 'fs = __wapii__.fs, mock = __wapii__.mock;\n';
const INVOKE = new vm.Script('__wapii__.invoke()', { filename: 'wapii:callback' });
const PUMP = new vm.Script('undefined', { filename: 'wapii:microtasks' });
const CONTEXT_SETUP = new vm.Script(
  'globalThis.global = globalThis;'
  + 'globalThis.queueMicrotask = (callback) => {'
  + "  if (typeof callback !== 'function') throw new TypeError('The \"callback\" argument must be of type function');"
  + '  Promise.resolve().then(() => callback()); };',
  { filename: 'wapii:context' },
);

/** A one-line description of anything a snippet threw or rejected with. */
function describe(value) {
  try {
    if (value !== null && typeof value === 'object' && 'message' in value) {
      return `${value.name || 'Error'}: ${value.message}`.split('\n')[0];
    }
    return `non-error value ${String(value)}`.split('\n')[0];
  } catch {
    return 'an unprintable value';
  }
}

/** A fresh axios instance that also carries the default export's static members. */
function freshAxios(axios) {
  const instance = axios.create();
  for (const key of Object.keys(axios)) {
    if (!(key in instance)) {
      instance[key] = axios[key];
    }
  }
  instance.default = instance;
  return instance;
}

class Run {
  /**
   * @param {object} env `axios`, `MockAdapter`, `fs`, `hostRequire` (resolving the installed packages)
   * @param {number} timeoutMs wall-time budget of the whole run
   * @param {string} keep which request a run that issues several reports: 'last' (the one the
   *   reference's log file ended up holding, each request overwriting it) or 'first'
   */
  constructor(env, timeoutMs, keep = 'last') {
    this.timeoutMs = timeoutMs;
    this.deadline = Date.now() + timeoutMs;
    this.keep = keep;
    this.requests = []; // JSON text of each logged config, in the order the mock received them
    this.failure = null; // why the run ended like a process exiting with code 1
    this.exitCode = null; // set by process.exit()
    this.finished = false;
    this.timers = new Map(); // pending timer handle -> its clear function
    this.pendingCall = null;
    this.axios = freshAxios(env.axios);
    this.mock = new env.MockAdapter(this.axios);
    this.mock.onAny().reply((config) => this.reply(config));
    this.context = this.makeContext(env);
  }

  /** The mock's reply: normalise and log the config (either may throw, rejecting the request). */
  reply(config) {
    normaliseCapturedConfig(config);
    const logged = JSON.stringify(config);
    if (!this.ended && !this.finished) {
      this.requests.push(logged);
    }
    return [200];
  }

  get ended() {
    return this.failure !== null || this.exitCode !== null;
  }

  fail(reason) {
    if (!this.ended && !this.finished) {
      this.failure = reason;
    }
  }

  remainingMs() {
    return Math.max(1, this.deadline - Date.now());
  }

  /** Records what escaped the snippet's code: an exit, a timeout, or an exception. */
  onThrow(error, kind) {
    if (error instanceof ExitSignal) {
      return;
    }
    if (error && error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      this.fail(`timeout after ${this.timeoutMs} ms`);
    } else {
      this.fail(`${kind}: ${describe(error)}`);
    }
  }

  onUnhandledRejection(reason) {
    if (!(reason instanceof ExitSignal)) {
      this.fail(`unhandled rejection: ${describe(reason)}`);
    }
  }

  onUncaughtException(error) {
    this.onThrow(error, 'uncaught exception');
  }

  /** Compiles and runs the snippet after the mock's declarations, like `node -` did. */
  start(code) {
    try {
      const script = new vm.Script(PRELUDE + code, { filename: '[stdin]' });
      script.runInContext(this.context, { timeout: this.remainingMs() });
    } catch (error) {
      this.onThrow(error, 'uncaught exception');
    }
  }

  /** Calls a snippet function (a timer callback) inside the context, under the deadline. */
  invoke(callback, args) {
    if (this.ended || this.finished) {
      return;
    }
    this.pendingCall = () => Reflect.apply(callback, undefined, args);
    try {
      INVOKE.runInContext(this.context, { timeout: this.remainingMs() });
    } catch (error) {
      this.onThrow(error, 'uncaught exception');
    } finally {
      this.pendingCall = null;
    }
  }

  /** Runs the context's queued microtasks (they only run after an evaluation in the context). */
  pump() {
    if (this.ended || this.finished) {
      return;
    }
    try {
      PUMP.runInContext(this.context, { timeout: this.remainingMs() });
    } catch (error) {
      this.onThrow(error, 'uncaught exception');
    }
  }

  /** Stops the run: pending timers are cleared, later callbacks and requests are ignored. */
  finish() {
    for (const [handle, clear] of this.timers) {
      clear(handle);
    }
    this.timers.clear();
    this.finished = true;
  }

  /** `{request, requests}` (the kept config's judged keys, how many were issued), or `{error, detail}`. */
  outcome() {
    const exitCode = this.exitCode ?? Number(this.process.exitCode ?? 0);
    if (this.failure !== null) {
      return { error: 'runtime_error', detail: this.failure };
    }
    if (exitCode !== 0) {
      return { error: 'runtime_error', detail: `process exited with code ${exitCode}` };
    }
    if (this.requests.length === 0) {
      const how = this.exitCode === null ? 'the code ran' : 'process.exit(0) was called';
      return { error: 'no_request', detail: `${how} without issuing a request` };
    }
    const logged = JSON.parse(this.keep === 'first' ? this.requests[0] : this.requests.at(-1));
    const request = {};
    for (const key of LOGGED_KEYS) {
      if (Object.hasOwn(logged, key)) {
        request[key] = logged[key];
      }
    }
    return { request, requests: this.requests.length };
  }

  /** The run's fresh context: the snippet's globals, the mock's bindings, `global`, `queueMicrotask`. */
  makeContext(env) {
    const globals = snippetGlobals(this, env);
    this.process = globals.process;
    Object.defineProperty(globals, '__wapii__', {
      value: {
        axios: this.axios,
        MockAdapter: env.MockAdapter,
        fs: env.fs,
        mock: this.mock,
        invoke: () => this.pendingCall && this.pendingCall(),
      },
      enumerable: false,
    });
    const context = vm.createContext(globals, { microtaskMode: 'afterEvaluate' });
    CONTEXT_SETUP.runInContext(context);
    return context;
  }
}

module.exports = { Run };
