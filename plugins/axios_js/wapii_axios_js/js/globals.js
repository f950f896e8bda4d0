'use strict';
/**
 * The globals a snippet sees besides the language's own: what the reference's `node -` script had
 * (`require`, `module`, `exports`, `__filename`, `__dirname`, `process`, `console`, timers, `Buffer`,
 * `URLSearchParams`, `FormData`, ...), bound to one run. Timers call back through the run, so that
 * their callbacks are bounded by its deadline and cleared when it ends; `process.exit()` ends the
 * run; `console` is silent; `require('axios')` is the run's own mocked instance.
 */

/** Node globals that are not part of the language and that a generated call may use. */
const HOST_GLOBALS = [
  'AbortController', 'AbortSignal', 'Blob', 'Buffer', 'BroadcastChannel', 'CompressionStream',
  'DecompressionStream', 'DOMException', 'Event', 'EventTarget', 'File', 'FormData', 'Headers',
  'MessageChannel', 'MessagePort', 'ReadableStream', 'Request', 'Response', 'TextDecoder',
  'TextEncoder', 'TransformStream', 'URL', 'URLSearchParams', 'WritableStream', 'atob', 'btoa',
  'crypto', 'fetch', 'performance', 'structuredClone',
];

/** Modules that would let a snippet leave this process (the network is cut off separately). */
const BLOCKED_MODULES = new Set(['child_process', 'cluster', 'inspector', 'worker_threads']);

/** Thrown through the snippet's stack by `process.exit()`. */
class ExitSignal {}

/** Timers whose callbacks run inside the snippet's context, under its deadline, and are cleared with it. */
function makeTimers(run) {
  const track = (handle, clear) => {
    run.timers.set(handle, clear);
    return handle;
  };
  const untrack = (clear) => (handle) => {
    run.timers.delete(handle);
    clear(handle);
  };
  return {
    setTimeout(callback, delay, ...args) {
      if (typeof callback !== 'function') return setTimeout(callback, delay); // throws like Node
      const handle = setTimeout(() => {
        run.timers.delete(handle);
        run.invoke(callback, args);
      }, delay);
      return track(handle, clearTimeout);
    },
    setInterval(callback, delay, ...args) {
      if (typeof callback !== 'function') return setInterval(callback, delay);
      return track(setInterval(() => run.invoke(callback, args), delay), clearInterval);
    },
    setImmediate(callback, ...args) {
      if (typeof callback !== 'function') return setImmediate(callback);
      const handle = setImmediate(() => {
        run.timers.delete(handle);
        run.invoke(callback, args);
      });
      return track(handle, clearImmediate);
    },
    clearTimeout: untrack(clearTimeout),
    clearInterval: untrack(clearInterval),
    clearImmediate: untrack(clearImmediate),
  };
}

/** What the snippet sees as `process`: harmless facts, and an `exit` that ends the run. */
function makeProcess(run) {
  const sink = { write: () => true, isTTY: false };
  const facade = {
    env: { ...process.env },
    argv: [process.execPath, '-'],
    argv0: 'node',
    execArgv: [],
    execPath: process.execPath,
    platform: process.platform,
    arch: process.arch,
    version: process.version,
    versions: { ...process.versions },
    release: { ...process.release },
    pid: process.pid,
    title: 'node',
    exitCode: undefined,
    stdout: sink,
    stderr: sink,
    cwd: () => process.cwd(),
    uptime: () => process.uptime(),
    hrtime: process.hrtime,
    memoryUsage: process.memoryUsage,
    emitWarning: () => undefined,
    nextTick(callback, ...args) {
      if (typeof callback !== 'function') return process.nextTick(callback);
      return process.nextTick(() => run.invoke(callback, args));
    },
    exit(code) {
      const value = code === undefined ? facade.exitCode : code;
      run.exitCode = Number(value ?? 0) || 0;
      throw new ExitSignal();
    },
  };
  for (const name of ['on', 'once', 'off', 'addListener', 'removeListener', 'removeAllListeners']) {
    facade[name] = () => facade;
  }
  return facade;
}

/** `require` as the snippet sees it: the run's own axios, no process-spawning modules. */
function makeRequire(run, hostRequire, processFacade) {
  const snippetRequire = function require(id) {
    const name = String(id).replace(/^node:/, '');
    if (name === 'axios') return run.axios;
    if (name === 'process') return processFacade;
    if (BLOCKED_MODULES.has(name)) {
      throw new Error(`Cannot load module '${id}' in the wapii sandbox`);
    }
    return hostRequire(id);
  };
  snippetRequire.resolve = hostRequire.resolve;
  snippetRequire.cache = Object.create(null);
  return snippetRequire;
}

/**
 * The global object's properties for one run (`run` provides `invoke`, `timers`, `exitCode`,
 * `axios`); `env.hostRequire` resolves the installed packages.
 */
function snippetGlobals(run, env) {
  const globals = {};
  for (const name of HOST_GLOBALS) {
    if (name in globalThis) globals[name] = globalThis[name];
  }
  const silent = {};
  for (const name of Object.keys(console)) silent[name] = () => undefined;
  const module = { exports: {}, id: '[stdin]', filename: '[stdin]', loaded: false, children: [] };
  const processFacade = makeProcess(run);
  return Object.assign(globals, makeTimers(run), {
    console: silent,
    process: processFacade,
    require: makeRequire(run, env.hostRequire, processFacade),
    module,
    exports: module.exports,
    __filename: '[stdin]',
    __dirname: '.',
  });
}

module.exports = { ExitSignal, snippetGlobals };
