'use strict';
/**
 * One execution of one snippet, in a fresh `vm` context that holds no object of the worker's realm.
 *
 * The context's global is a null-prototype object; everything in it comes from the kit
 * (`bundle.js`, `realm/`), evaluated inside the context, so the
 * `this.constructor.constructor('return process')()` escape reaches only the context's own
 * `Function`. The worker and the context exchange primitives only: the worker evaluates small
 * scripts (`__wapii_kit.step()`, ...) in the context and reads back numbers and JSON strings.
 * Values the snippet throws or rejects with are handed to the kit for describing (through a slot
 * on the global, never read by the worker).
 *
 * Every evaluation that can run the snippet's code (the snippet itself, a step of its event loop,
 * describing what it threw) runs under the run's remaining time. The context's microtasks run
 * after each evaluation (`microtaskMode: 'afterEvaluate'`), under that timeout too:
 * `.then(() => { while (true) {} })` is stopped like a synchronous loop. The kit's `pending()` and
 * `outcome()` run no replaceable code (see `realm/session.js`) and need no timeout, which keeps a
 * plain call at one timed evaluation. WebAssembly compilation is disabled in the context.
 *
 * The outcome is JSON text that the kit wrote; it is parsed here and only a well-formed answer is
 * passed on (`checkedOutcome`), rebuilt from its known fields.
 */

const vm = require('vm');
const { types } = require('util');

/**
 * Dynamic `import()` in a snippet (or in code it evaluates) stays pending for ever: with the worker
 * started with --experimental-vm-modules, this replaces Node's default, which rejects with an
 * error object of the worker's own realm.
 */
const NEVER = () => new Promise(() => {});
const SLOT = '__wapii_slot__';
const script = (source, name) => new vm.Script(source, { filename: `wapii:${name}` });
const BEGIN = script(`__wapii_kit.begin(globalThis.${SLOT})`, 'begin');
const PENDING = script('__wapii_kit.pending()', 'pending');
const STEP = script('__wapii_kit.step()', 'step');
const THROWN = script(`__wapii_kit.thrown(globalThis.${SLOT})`, 'thrown');
const REJECTED = script(`__wapii_kit.rejected(globalThis.${SLOT})`, 'rejected');
const OUTCOME = script('__wapii_kit.outcome()', 'outcome');
const NEXT_ASK = script('__wapii_kit.nextAsk()', 'next-ask');
const ANSWER = script(`__wapii_kit.answer(globalThis.${SLOT})`, 'answer');
const KIT_SCRIPTS = new Set([PENDING, STEP, THROWN, REJECTED, OUTCOME, NEXT_ASK, ANSWER]);
const BROKEN = { error: 'runtime_error', detail: 'uncaught exception: the snippet broke the sandbox kit' };
const TIMED_OUT = Symbol('timed out');
const IDLE = -1;
const WAITING = -3;

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Whether `error` is vm's timeout error, checked without running any code a snippet wrote (Node
 * creates it in whichever realm is current, so only its own `code` property is read).
 */
function isTimeout(error) {
  if (error === null || typeof error !== 'object' || types.isProxy(error)) return false;
  const code = Object.getOwnPropertyDescriptor(error, 'code');
  return code !== undefined && code.value === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}

const ERRORS = new Set(['runtime_error', 'no_request']);

const isRecord = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const hasKeys = (value, keys) => {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => Object.hasOwn(value, key));
};

/**
 * The kit's answer as the worker reports it: `{request, requests}` (a JSON object, a positive
 * integer) or `{error, detail}` (an error kind the kit gives, a string); anything else is BROKEN.
 */
function checkedOutcome(value) {
  if (!isRecord(value)) return BROKEN;
  if (hasKeys(value, ['error', 'detail']) && ERRORS.has(value.error) && typeof value.detail === 'string') {
    return { error: value.error, detail: value.detail };
  }
  if (hasKeys(value, ['request', 'requests']) && isRecord(value.request) && Number.isSafeInteger(value.requests)
    && value.requests > 0) {
    return { request: value.request, requests: value.requests };
  }
  return BROKEN;
}

/** The first line of a worker-realm error (a syntax error of the snippet). */
function describeOwn(error) {
  return `${error.name || 'Error'}: ${error.message}`.split('\n')[0];
}

class Run {
  /**
   * @param {vm.Script} kit the compiled kit (`bundle.js`)
   * @param {string} params JSON for the kit's `begin`: `{keep, facts}`
   * @param {number} timeoutMs wall-time budget of the snippet and everything it schedules
   * @param {string} prelude the library's source put before the snippet (binds what the hook set up)
   * @param {object|null} channel where the run's requests go and their answers come from (`worker.js`'s
   *   `Channel`: `send(text) -> error|null`, `next(ms) -> Promise<answer JSON text|null>`, `ended`), or
   *   null when nothing answers
   */
  constructor(kit, params, timeoutMs, prelude, channel = null) {
    this.timeoutMs = timeoutMs;
    this.prelude = prelude;
    this.channel = channel;
    this.sandbox = Object.create(null);
    this.context = vm.createContext(this.sandbox, {
      microtaskMode: 'afterEvaluate',
      codeGeneration: { strings: true, wasm: false },
    });
    kit.runInContext(this.context);
    this.pass(params);
    BEGIN.runInContext(this.context);
    this.deadline = Date.now() + timeoutMs;
    this.broken = false;
  }

  /** Puts a value on the context's slot without invoking any accessor a snippet defined there. */
  pass(value) {
    Reflect.defineProperty(this.sandbox, SLOT, { value, writable: true, configurable: true, enumerable: false });
  }

  /** Evaluates `script` under the remaining time; a value the snippet throws goes to the kit. */
  timed(target) {
    const remaining = this.deadline - Date.now();
    if (remaining <= 0) return TIMED_OUT;
    try {
      return target.runInContext(this.context, { timeout: remaining });
    } catch (error) {
      if (isTimeout(error)) return TIMED_OUT;
      if (KIT_SCRIPTS.has(target)) {
        this.broken = true;
        return undefined;
      }
      this.pass(error);
      return this.timed(THROWN);
    }
  }

  /** Evaluates one of the kit's functions that run no snippet code. */
  untimed(target) {
    try {
      return target.runInContext(this.context);
    } catch {
      this.broken = true;
      return undefined;
    }
  }

  /**
   * Called for every unhandled rejection observed while this run is current. All of them are its
   * own, whatever the promise's prototype (a subclass's, null): no other context runs any more, and
   * the worker lets the rejections of a run's last evaluation be reported before the next run
   * begins (`settle`).
   */
  rejected(reason) {
    this.pass(reason);
    this.timed(REJECTED);
  }

  timeout() {
    return { error: 'timeout', detail: `timeout after ${this.timeoutMs} ms` };
  }

  /**
   * Sends the requests the run asked since the last flush (`nextAsk()`, which runs no snippet code),
   * and hands back at once the answers already come: a request that cannot be sent is rejected.
   */
  flush() {
    if (this.channel === null) return undefined;
    for (;;) {
      const text = this.untimed(NEXT_ASK);
      if (typeof text !== 'string' || text === '') break;
      const refusal = this.channel.send(text);
      if (refusal !== null) {
        this.pass(refusal);
        if (this.timed(ANSWER) === TIMED_OUT) return TIMED_OUT;
      }
    }
    for (let reply = this.channel.take(); reply !== null; reply = this.channel.take()) {
      this.pass(reply);
      if (this.timed(ANSWER) === TIMED_OUT) return TIMED_OUT;
    }
    return undefined;
  }

  /** Runs `code` after the library's prelude; resolves to `{request, requests}` or `{error, detail}`. */
  async execute(code) {
    let snippet;
    try {
      snippet = new vm.Script(this.prelude + code, { filename: '[stdin]', importModuleDynamically: NEVER });
    } catch (error) {
      return { error: 'runtime_error', detail: `uncaught exception: ${describeOwn(error)}` };
    }
    if (this.timed(snippet) === TIMED_OUT) return this.timeout();
    await nextTurn(); // lets the worker observe unhandled rejections of the last evaluation
    while (!this.broken && this.untimed(PENDING) === true) {
      if (this.flush() === TIMED_OUT) return this.timeout();
      const result = this.timed(STEP);
      if (result === TIMED_OUT) return this.timeout();
      if (result === WAITING && this.channel !== null) {
        if (this.flush() === TIMED_OUT) return this.timeout();
        const reply = await this.channel.next(Math.max(1, this.deadline - Date.now()));
        if (this.channel.ended !== null) return { error: 'runtime_error', detail: this.channel.ended };
        if (reply === null) return this.timeout();
        this.pass(reply);
        if (this.timed(ANSWER) === TIMED_OUT) return this.timeout();
        await nextTurn();
        continue;
      }
      if (typeof result !== 'number' || result < 0) {
        if (result === IDLE) await nextTurn();
        break;
      }
      if (result > 0) await sleep(Math.min(result, Math.max(1, this.deadline - Date.now())));
      await nextTurn();
    }
    if (Date.now() > this.deadline) return this.timeout();
    if (this.channel !== null && this.channel.ended !== null) return { error: 'runtime_error', detail: this.channel.ended };
    const outcome = this.untimed(OUTCOME);
    if (this.broken || typeof outcome !== 'string') return BROKEN;
    try {
      return checkedOutcome(JSON.parse(outcome));
    } catch {
      return BROKEN;
    }
  }
}

/**
 * Resolves once Node has reported the unhandled rejections of the evaluations made so far (it does
 * so after the current task): run after a run ends, so that none of its rejections is observed while
 * the next run is current.
 */
const settle = nextTurn;

module.exports = { NEVER, Run, settle };
