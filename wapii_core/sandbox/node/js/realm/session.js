'use strict';
/**
 * One run of one snippet, inside its own context: the kit API that the worker (`run.js`) calls.
 *
 * `begin(params)` sets the context up the way the reference's `node -` script did: its globals
 * (`globals.js`), then the library, set up by the adapter's hook (the module `hookId`, see
 * below), whose bindings the snippet sees through the prelude in `run.js`
 * (e.g. `const axios = __wapii__.axios, ...;`).
 *
 * The hook exports `function setUp({ require, record, known, ask })` and returns the bindings (an
 * object; it becomes the read-only global `__wapii__`): `require` is the snippet's own `require`,
 * `record(captured)` records one request the library sent (`captured` is `{request}`, a node of
 * `json_nodes.js`, or `{refused}`, why the request cannot be read faithfully; a hook reads what it
 * records with `snapshot.js`), `known` the prototypes `snapshot.js` recognises (the hook sets
 * `HeaderMap` when its library has one; `Buffer` is set here once its module loads). The hook runs
 * before any snippet code, so what it keeps (e.g. `record` and the intrinsics of
 * `primordials.js`) is out of the snippet's reach. `ask(captured)` sends a recorded request to the
 * run's responder, outside the realm: it returns undefined when nothing answers (the first-call
 * benchmark: the hook answers as the reference's mock did), else a promise of the answer, a
 * null-prototype record `{status, statusText, headers: [[name, value]...], body}` (the body as
 * text), rejected when the request cannot be sent or no answer comes. The worker takes each request
 * asked with `nextAsk()` and hands each answer back with `answer(text)`; while answers are awaited
 * and nothing else is queued, `step()` says so (`WAITING`) and the worker waits for the next answer.
 *
 * The outcome follows the reference's process exit: a failure (uncaught exception, unhandled
 * rejection) or `process.exit(n)` / `process.exitCode = n` with n != 0 is a `runtime_error`, even
 * after a request; otherwise the kept request (`keep`: the last one, as the reference's log file
 * held, or the first), or `no_request`. A kept request that could not be read faithfully (a Proxy
 * or a getter in a judged value, see `snapshot.js`) is a `runtime_error` whose detail starts with
 * `bad_capture`.
 *
 * The snippet shares this realm, so everything here that decides the outcome uses only intrinsics
 * saved before the snippet ran (`primordials.js`) and null-prototype records that the snippet
 * cannot reach: it can replace any built-in, but not what the kit kept of it. Every kit function
 * takes and returns primitives only; `pending()` and `outcome()` run without a timeout and so run
 * no code a snippet could have written. `begin` works once.
 */

const { installGlobals, isExitSignal } = require('./globals');
const { jsonText } = require('./json_text');
const { objectNode } = require('./json_nodes');
const { createLoop } = require('./loop');
const {
  JSONParse, NumberCtor, ObjectFreeze, ObjectHasOwn, ReflectApply, ReflectGetOwnPropertyDescriptor, StringCtor, StringPrototypeIndexOf, StringPrototypeSlice,
} = require('./primordials');
const { trackProxies } = require('./proxies');

/** `step()`'s answer once the run has ended (failure or exit); others are `Loop.step()`'s. */
const ENDED = -2;
/** `step()`'s answer when nothing is queued but answers are awaited (the worker waits for one). */
const WAITING = -3;
const SavedPromise = Promise;
const SafeError = Error;

/** The first line of `text`. */
function firstLine(text) {
  const end = StringPrototypeIndexOf(text, '\n');
  return end === -1 ? text : StringPrototypeSlice(text, 0, end);
}

/** A one-line description of anything a snippet threw or rejected with (runs under a timeout). */
function describe(value) {
  try {
    if (value !== null && typeof value === 'object' && 'message' in value) {
      return firstLine(`${value.name || 'Error'}: ${value.message}`);
    }
    return firstLine(`non-error value ${StringCtor(value)}`);
  } catch {
    return 'an unprintable value';
  }
}

/** The exit code `process.exitCode` holds, read without invoking an accessor. */
function exitCodeOf(facade) {
  const slot = ReflectGetOwnPropertyDescriptor(facade, 'exitCode');
  if (slot === undefined || !ObjectHasOwn(slot, 'value')) return 'redefined';
  const value = slot.value;
  if (value === undefined || value === null) return 0;
  if (typeof value === 'bigint') return NumberCtor(value);
  if (typeof value === 'object' || typeof value === 'function' || typeof value === 'symbol') return 'not a number';
  return +value;
}

/** JSON of a record of strings and numbers (and captured request nodes), written by the kit. */
function answer(fields) {
  const node = objectNode();
  const keys = ['error', 'detail', 'request', 'requests'];
  for (let i = 0; i < keys.length; i++) if (ObjectHasOwn(fields, keys[i])) node.members[keys[i]] = fields[keys[i]];
  return jsonText(node);
}

function createKit(loader, snippetId, hookId) {
  const run = {
    __proto__: null, begun: false, keep: 'last', count: 0, first: null, last: null, failure: null, exitCode: null,
    process: null, loop: null, answers: false, asked: 0, outgoing: { __proto__: null }, sent: 0,
    waiting: { __proto__: null }, awaited: 0,
  };

  const ended = () => run.failure !== null || run.exitCode !== null;
  const fail = (reason) => {
    if (!ended()) run.failure = reason;
  };
  const onThrow = (error, kind) => {
    if (!isExitSignal(error)) fail(`${kind}: ${describe(error)}`);
  };

  /** Prototypes the capture recognises: the library's header map (set by the hook), Buffer once its module loads. */
  const known = { __proto__: null, HeaderMap: undefined, Buffer: undefined };

  /** Records one request the library sent (`{request}` or `{refused}`), unless the run has ended. */
  function record(captured) {
    if (!ended()) {
      run.count += 1;
      if (run.first === null) run.first = captured;
      run.last = captured;
    }
  }

  /** Records `Buffer.prototype` when the run's `buffer` module has loaded (JSON wrote a Buffer as {type, data}). */
  function watchBuffer() {
    loader.watch(loader.resolve(snippetId, 'buffer'), (exports) => {
      const slot = exports !== null && typeof exports === 'object' ? ReflectGetOwnPropertyDescriptor(exports, 'Buffer') : undefined;
      const Buffer = slot !== undefined && ObjectHasOwn(slot, 'value') ? slot.value : undefined;
      const prototype = typeof Buffer === 'function' ? ReflectGetOwnPropertyDescriptor(Buffer, 'prototype') : undefined;
      if (prototype !== undefined && ObjectHasOwn(prototype, 'value')) known.Buffer = prototype.value;
    });
  }

  /**
   * Sends a recorded request (`{request}`; `{refused}` cannot be sent) to the responder: undefined
   * when nothing answers, else a promise of its answer (see the module's comment).
   */
  function ask(captured) {
    if (!run.answers) return undefined;
    if (ended()) return new SavedPromise(() => {});
    if (captured.refused !== undefined) {
      return new SavedPromise((resolve, reject) => reject(new SafeError(`the request could not be sent: ${captured.refused}`)));
    }
    run.asked += 1;
    const seq = run.asked;
    run.outgoing[seq] = `{"seq":${seq},"request":${jsonText(captured.request)}}`;
    return new SavedPromise((resolve, reject) => {
      run.waiting[seq] = { __proto__: null, resolve, reject };
      run.awaited += 1;
    });
  }

  const kit = {
    /** Sets the run up; `params` is JSON: `{keep: "last"|"first", facts: {env, version, ...}, answers}`. */
    begin(params) {
      if (run.begun) throw new Error('the run has already begun');
      run.begun = true;
      trackProxies(globalThis);
      const { keep, facts, answers } = JSONParse(params);
      run.answers = answers === true;
      run.keep = keep === 'first' ? 'first' : 'last';
      run.loop = createLoop((callback, args) => {
        if (ended()) return;
        try {
          ReflectApply(callback, undefined, args);
        } catch (error) {
          onThrow(error, 'uncaught exception');
        }
      });
      watchBuffer();
      const snippetRequire = loader.makeRequire(snippetId);
      run.process = installGlobals(globalThis, {
        snippetRequire,
        loop: run.loop,
        facts,
        onExit: (code) => {
          if (!ended()) run.exitCode = code;
        },
      });
      const bindings = loader.load(hookId)({ require: snippetRequire, record, known, ask });
      Object.defineProperty(globalThis, '__wapii__', { value: bindings });
    },

    /** Whether the run may still do something: it has not ended, and callbacks are queued or answers awaited. */
    pending() {
      return !ended() && (run.loop.pending() || run.awaited > 0);
    },

    /**
     * Runs one pending callback: 0 ran one, -1 nothing pending, -2 the run ended, -3 nothing queued but
     * answers awaited, n > 0 ms to wait.
     */
    step() {
      if (ended()) return ENDED;
      const result = run.loop.step();
      if (ended()) return ENDED;
      return result === -1 && run.awaited > 0 ? WAITING : result;
    },

    /** JSON text `{seq, request}` of the oldest request not yet taken, or '' (runs no snippet code). */
    nextAsk() {
      if (run.sent >= run.asked) return '';
      run.sent += 1;
      const text = run.outgoing[run.sent];
      delete run.outgoing[run.sent];
      return text;
    },

    /** Settles request `seq`'s promise with `text`: JSON `{seq, status, statusText, headers, body}` or `{seq, error}`. */
    answer(text) {
      const reply = JSONParse(text);
      const waiting = run.waiting[reply.seq];
      if (waiting === undefined) return;
      delete run.waiting[reply.seq];
      run.awaited -= 1;
      if (typeof reply.error === 'string') {
        waiting.reject(new SafeError(reply.error));
        return;
      }
      waiting.resolve({
        __proto__: null, status: reply.status, statusText: reply.statusText, headers: reply.headers, body: reply.body,
      });
    },

    /** Records what the snippet's top-level code threw (`process.exit()` throws an ExitSignal). */
    thrown(value) {
      onThrow(value, 'uncaught exception');
    },

    /** Records an unhandled rejection that the worker observed. */
    rejected(reason) {
      if (!isExitSignal(reason)) fail(`unhandled rejection: ${describe(reason)}`);
    },

    /** JSON: `{request, requests}` (the kept config's judged keys, how many were issued), or `{error, detail}`. */
    outcome() {
      if (run.failure !== null) return answer({ __proto__: null, error: 'runtime_error', detail: run.failure });
      const exitCode = run.exitCode !== null ? run.exitCode : exitCodeOf(run.process);
      if (exitCode !== 0) return answer({ __proto__: null, error: 'runtime_error', detail: `process exited with code ${exitCode}` });
      if (run.count === 0) {
        const how = run.exitCode === null ? 'the code ran' : 'process.exit(0) was called';
        return answer({ __proto__: null, error: 'no_request', detail: `${how} without issuing a request` });
      }
      const kept = run.keep === 'first' ? run.first : run.last;
      if (kept.refused !== undefined) return answer({ __proto__: null, error: 'runtime_error', detail: kept.refused });
      return answer({ __proto__: null, request: kept.request, requests: run.count });
    },
  };
  return ObjectFreeze(kit);
}

module.exports = { createKit };
