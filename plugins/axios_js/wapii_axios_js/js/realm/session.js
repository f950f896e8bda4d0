'use strict';
/**
 * One run of one snippet, inside its own context: the kit API that the worker (`run.js`) calls.
 *
 * `begin(params)` sets the context up the way the reference's `node -` script did: its globals
 * (`globals.js`), `axios` and `MockAdapter` loaded from the context's own copies of the packages,
 * `fs`, and `mock = new MockAdapter(axios)` answering every request with 200 after normalising and
 * logging its config (`capture.js`). The snippet then runs after the prelude in `run.js`
 * (`const axios = __wapii__.axios, MockAdapter = ..., fs = ..., mock = ...;`).
 *
 * The outcome follows the reference's process exit: a failure (uncaught exception, unhandled
 * rejection) or `process.exit(n)` / `process.exitCode = n` with n != 0 is a `runtime_error`, even
 * after a request; otherwise the kept request (`keep`: the last one, as the reference's log file
 * held, or the first), or `no_request`.
 *
 * Every kit function takes and returns primitives only. `pending()` and `outcome()` are evaluated
 * without a timeout, so they run no code a snippet could have replaced: they read own properties
 * of the kit's private objects and intrinsics captured before the snippet ran, and build their
 * answer from strings.
 */

const { normaliseCapturedConfig } = require('./capture');
const { ExitSignal, installGlobals } = require('./globals');
const { Loop } = require('./loop');

/** The keys of the logged config that the judging reads (metrics.md §3; `path_params` may be user-set). */
const LOGGED_KEYS = ['url', 'method', 'headers', 'params', 'data', 'path_params'];
/** `step()`'s answer once the run has ended (failure or exit); others are `Loop.step()`'s. */
const ENDED = -2;

const stringify = JSON.stringify;
const parse = JSON.parse;
const describeProperty = Object.getOwnPropertyDescriptor;
const hasOwn = Object.hasOwn;

/** A one-line description of anything a snippet threw or rejected with (runs under a timeout). */
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

/** `{"error": ..., "detail": ...}` built from two strings, without running any replaceable code. */
function errorJson(error, detail) {
  return '{"error":' + stringify(error) + ',"detail":' + stringify(detail) + '}';
}

/** The exit code `process.exitCode` holds, read without invoking an accessor. */
function exitCodeOf(facade) {
  const slot = describeProperty(facade, 'exitCode');
  if (slot === undefined || !hasOwn(slot, 'value')) return 'redefined';
  const value = slot.value;
  if (value === undefined || value === null) return 0;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'object' || typeof value === 'function' || typeof value === 'symbol') return 'not a number';
  return +value;
}

function createKit(loader, snippetId) {
  let run = null;

  const ended = () => run.failure !== null || run.exitCode !== null;
  const fail = (reason) => {
    if (!ended()) run.failure = reason;
  };
  const onThrow = (error, kind) => {
    if (!(error instanceof ExitSignal)) fail(`${kind}: ${describe(error)}`);
  };

  /** The mock's reply: normalise the config, keep the judged keys as JSON (may throw: a rejection). */
  function reply(config) {
    normaliseCapturedConfig(config);
    const logged = parse(stringify(config));
    const request = {};
    for (const key of LOGGED_KEYS) {
      if (hasOwn(logged, key)) request[key] = logged[key];
    }
    const text = stringify(request);
    if (!ended()) run.requests[run.requests.length] = text;
    return [200];
  }

  const kit = {
    /** Sets the run up; `params` is JSON: `{keep: "last"|"first", facts: {env, version, ...}}`. */
    begin(params) {
      const { keep, facts } = parse(params);
      run = { keep, requests: [], failure: null, exitCode: null, process: null, loop: null };
      run.loop = new Loop((callback, args) => {
        if (ended()) return;
        try {
          Reflect.apply(callback, undefined, args);
        } catch (error) {
          onThrow(error, 'uncaught exception');
        }
      });
      const snippetRequire = loader.makeRequire(snippetId);
      run.process = installGlobals(globalThis, {
        snippetRequire,
        loop: run.loop,
        facts,
        onExit: (code) => {
          if (!ended()) run.exitCode = code;
        },
      });
      const axios = snippetRequire('axios');
      const MockAdapter = snippetRequire('axios-mock-adapter');
      const mock = new MockAdapter(axios);
      mock.onAny().reply(reply);
      Object.defineProperty(globalThis, '__wapii__', { value: { axios, MockAdapter, fs: snippetRequire('fs'), mock } });
    },

    /** Whether the run may still do something: it has not ended and callbacks are queued. */
    pending() {
      if (ended()) return false;
      const loop = run.loop;
      return loop.ticks.length + loop.timers.length + loop.immediates.length > 0;
    },

    /** Runs one pending callback: 0 ran one, -1 nothing pending, -2 the run ended, n > 0 ms to wait. */
    step() {
      if (ended()) return ENDED;
      const result = run.loop.step();
      return ended() ? ENDED : result;
    },

    /** Records what the snippet's top-level code threw (`process.exit()` throws an ExitSignal). */
    thrown(value) {
      onThrow(value, 'uncaught exception');
    },

    /** Records an unhandled rejection that the worker observed. */
    rejected(reason) {
      if (!(reason instanceof ExitSignal)) fail(`unhandled rejection: ${describe(reason)}`);
    },

    /** JSON: `{request, requests}` (the kept config's judged keys, how many were issued), or `{error, detail}`. */
    outcome() {
      if (run.failure !== null) return errorJson('runtime_error', run.failure);
      const exitCode = run.exitCode !== null ? run.exitCode : exitCodeOf(run.process);
      if (exitCode !== 0) return errorJson('runtime_error', 'process exited with code ' + exitCode);
      const count = run.requests.length;
      if (count === 0) {
        const how = run.exitCode === null ? 'the code ran' : 'process.exit(0) was called';
        return errorJson('no_request', how + ' without issuing a request');
      }
      return '{"request":' + run.requests[run.keep === 'first' ? 0 : count - 1] + ',"requests":' + count + '}';
    },
  };
  return Object.freeze(kit);
}

module.exports = { createKit };
