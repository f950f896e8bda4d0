'use strict';
/**
 * The globals a snippet sees besides the language's own, as the reference's `node -` script had
 * them: `require`, `module`, `exports`, `__filename`, `__dirname`, `process`, `console`, timers,
 * `queueMicrotask`, `Buffer`, `URL`, `URLSearchParams` and the web globals of `web.js`. All of them
 * belong to the run's own context: `process` is a facade whose `exit()` ends the run, `console` is
 * silent, `require` loads the context's own modules (`loader.js`). Two of the language's own are
 * taken away: `FinalizationRegistry` and `Atomics.waitAsync`, whose callbacks the worker would run
 * outside the run (see `removeDeferredCallbacks`).
 */

const { SafeWeakSet, WeakSetPrototypeAdd, WeakSetPrototypeHas } = require('./primordials');
const state = require('./state');

/** Thrown through the snippet's stack by `process.exit()`. */
class ExitSignal {}

const signals = new SafeWeakSet();

/** A new ExitSignal, recorded: the kit recognises its own by identity, not by `instanceof`. */
function exitSignal() {
  const signal = new ExitSignal();
  WeakSetPrototypeAdd(signals, signal);
  return signal;
}

/** Whether `value` is an ExitSignal that `process.exit()` threw. */
function isExitSignal(value) {
  return value !== null && typeof value === 'object' && WeakSetPrototypeHas(signals, value);
}

/**
 * Globals whose callbacks the host would run outside any run, possibly while a later run is
 * current: a FinalizationRegistry's cleanup runs as a task of the worker's own event loop, where a
 * callback that loops for ever (or throws) hangs (or kills) the worker in the middle of another
 * sample. `Atomics.waitAsync` settles through such tasks too.
 */
function removeDeferredCallbacks(global) {
  delete global.FinalizationRegistry;
  delete global.Atomics.waitAsync;
}

const CONSOLE_METHODS = ['assert', 'clear', 'count', 'countReset', 'debug', 'dir', 'dirxml', 'error', 'group',
  'groupCollapsed', 'groupEnd', 'info', 'log', 'table', 'time', 'timeEnd', 'timeLog', 'trace', 'warn'];

/** What the snippet sees as `process`: facts about the worker's Node, and an `exit` that ends the run. */
function makeProcess(facts, loop, onExit) {
  const sink = { write: () => true, end: () => undefined, isTTY: false, on: () => sink, once: () => sink };
  const started = Date.now();
  const hrtime = (previous) => {
    const ns = BigInt(Date.now()) * 1000000n;
    const now = [Number(ns / 1000000000n), Number(ns % 1000000000n)];
    if (!previous) return now;
    const diff = (now[0] - previous[0]) * 1e9 + (now[1] - previous[1]);
    return [Math.floor(diff / 1e9), diff % 1e9];
  };
  hrtime.bigint = () => BigInt(Date.now()) * 1000000n;
  const facade = {
    env: { ...facts.env },
    argv: [facts.execPath, '-'],
    argv0: 'node',
    execArgv: [],
    execPath: facts.execPath,
    platform: facts.platform,
    arch: facts.arch,
    version: facts.version,
    versions: { ...facts.versions },
    release: { name: 'node' },
    pid: facts.pid,
    ppid: 1,
    title: 'node',
    exitCode: undefined,
    stdout: sink,
    stderr: sink,
    stdin: sink,
    cwd: () => facts.cwd,
    chdir: () => undefined,
    umask: () => 0o22,
    uptime: () => (Date.now() - started) / 1000,
    hrtime,
    memoryUsage: () => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }),
    cpuUsage: () => ({ user: 0, system: 0 }),
    emitWarning: () => undefined,
    nextTick: (callback, ...args) => loop.nextTick(callback, ...args),
    exit(code) {
      onExit(Number((code === undefined ? facade.exitCode : code) ?? 0) || 0);
      throw exitSignal();
    },
    abort() {
      onExit(134);
      throw exitSignal();
    },
    kill() {
      throw Object.assign(new Error('kill EPERM'), { code: 'EPERM', syscall: 'kill' });
    },
  };
  for (const name of ['on', 'once', 'off', 'addListener', 'removeListener', 'removeAllListeners', 'prependListener']) {
    facade[name] = () => facade;
  }
  facade.listeners = () => [];
  facade.listenerCount = () => 0;
  Object.defineProperty(facade, Symbol.toStringTag, { value: 'process', configurable: true });
  return facade;
}

/** Defines `name` on the global as Node does (writable, configurable, not enumerable), lazily. */
function defineLazy(target, name, get) {
  Object.defineProperty(target, name, {
    configurable: true,
    enumerable: false,
    get() {
      const value = get();
      Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
      return value;
    },
    set(value) {
      Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
    },
  });
}

function defineValue(target, name, value) {
  Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
}

/**
 * Installs the snippet's globals on `global`: `snippetRequire` is the loader's `require` for the
 * snippet, `loop` the run's event loop, `facts` what `process` reports, `onExit(code)` is called by
 * `process.exit()`. Returns the process facade.
 */
function installGlobals(global, { snippetRequire, loop, facts, onExit }) {
  removeDeferredCallbacks(global);
  const processFacade = makeProcess(facts, loop, onExit);
  state.process = processFacade;
  state.cwd = facts.cwd;
  const silent = {};
  for (const name of CONSOLE_METHODS) silent[name] = () => undefined;
  const module = { exports: {}, id: '[stdin]', filename: '[stdin]', loaded: false, children: [], paths: [] };
  const globals = {
    global,
    console: silent,
    process: processFacade,
    require: snippetRequire,
    module,
    exports: module.exports,
    __filename: '[stdin]',
    __dirname: '.',
    queueMicrotask(callback) {
      if (typeof callback !== 'function') throw new TypeError('The "callback" argument must be of type function');
      Promise.resolve().then(() => callback());
    },
    ...loop.globals(),
  };
  for (const [name, value] of Object.entries(globals)) defineValue(global, name, value);
  defineLazy(global, 'Buffer', () => require('buffer').Buffer);
  defineLazy(global, 'URL', () => require('url').URL);
  defineLazy(global, 'URLSearchParams', () => require('url').URLSearchParams);
  for (const name of ['AbortController', 'AbortSignal', 'DOMException', 'Event', 'EventTarget', 'FormData',
    'TextDecoder', 'TextEncoder', 'atob', 'btoa', 'crypto', 'fetch', 'performance']) {
    defineLazy(global, name, () => require('./web')[name]);
  }
  return processFacade;
}

module.exports = { installGlobals, isExitSignal };
