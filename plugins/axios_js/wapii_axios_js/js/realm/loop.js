'use strict';
/**
 * The event loop of one run, inside its context: timers, immediates and `process.nextTick`.
 *
 * The worker drives it by calling `step()` (through `session.js`) in separate evaluations, so that
 * the context's microtasks (`microtaskMode: 'afterEvaluate'`) run after every callback, as in Node.
 * One step runs one callback: a queued nextTick first, then the earliest due timer, then the
 * oldest immediate. Timers that are `unref()`ed do not keep the run alive, as in Node.
 */

const TIMEOUT_MAX = 2 ** 31 - 1;

/** `step()` results besides "ms until the next timer is due". */
const RAN = 0;
const IDLE = -1;

function checkCallback(callback) {
  if (typeof callback !== 'function') {
    const error = new TypeError(`The "callback" argument must be of type function. Received ${callback === null ? 'null' : typeof callback}`);
    error.code = 'ERR_INVALID_ARG_TYPE';
    throw error;
  }
}

function delayOf(value) {
  const delay = Number(value);
  return delay >= 1 && delay <= TIMEOUT_MAX ? Math.trunc(delay) : 1;
}

class Handle {
  constructor(loop, callback, args, delay, repeat) {
    this.loop = loop;
    this.id = loop.nextId += 1;
    this.callback = callback;
    this.args = args;
    this.delay = delay;
    this.repeat = repeat;
    this.referenced = true;
    this.due = Date.now() + delay;
    this.active = true;
  }

  ref() {
    this.referenced = true;
    return this;
  }

  unref() {
    this.referenced = false;
    return this;
  }

  hasRef() {
    return this.referenced;
  }

  refresh() {
    this.due = Date.now() + this.delay;
    return this;
  }

  close() {
    this.active = false;
    return this;
  }

  [Symbol.toPrimitive]() {
    return this.id;
  }
}

class Loop {
  /** @param {(callback: Function, args: any[]) => void} invoke runs one callback, reporting what it throws */
  constructor(invoke) {
    this.invoke = invoke;
    this.nextId = 0;
    this.timers = [];
    this.immediates = [];
    this.ticks = [];
  }

  setTimeout(callback, delay, ...args) {
    checkCallback(callback);
    const handle = new Handle(this, callback, args, delayOf(delay), false);
    this.timers.push(handle);
    return handle;
  }

  setInterval(callback, delay, ...args) {
    checkCallback(callback);
    const handle = new Handle(this, callback, args, delayOf(delay), true);
    this.timers.push(handle);
    return handle;
  }

  setImmediate(callback, ...args) {
    checkCallback(callback);
    const handle = new Handle(this, callback, args, 0, false);
    this.immediates.push(handle);
    return handle;
  }

  clear(handle) {
    if (handle === null || handle === undefined) return;
    const id = typeof handle === 'object' ? handle.id : Number(handle);
    for (const list of [this.timers, this.immediates]) {
      const found = list.find((entry) => entry.id === id);
      if (found) found.active = false;
    }
  }

  nextTick(callback, ...args) {
    checkCallback(callback);
    this.ticks.push({ callback, args });
  }

  /** Runs one callback; returns RAN, IDLE, or the ms until the next referenced timer is due. */
  step() {
    if (this.ticks.length > 0) {
      const { callback, args } = this.ticks.shift();
      this.invoke(callback, args);
      return RAN;
    }
    this.timers = this.timers.filter((handle) => handle.active);
    this.immediates = this.immediates.filter((handle) => handle.active);
    const now = Date.now();
    let earliest = null;
    for (const handle of this.timers) {
      if (earliest === null || handle.due < earliest.due || (handle.due === earliest.due && handle.id < earliest.id)) earliest = handle;
    }
    if (earliest !== null && earliest.due <= now) {
      if (earliest.repeat) earliest.due = now + earliest.delay;
      else earliest.active = false;
      this.invoke(earliest.callback, earliest.args);
      return RAN;
    }
    if (this.immediates.length > 0) {
      const handle = this.immediates.shift();
      handle.active = false;
      this.invoke(handle.callback, handle.args);
      return RAN;
    }
    const waiting = this.timers.filter((handle) => handle.referenced);
    if (waiting.length === 0 && !this.immediates.some((handle) => handle.referenced)) return IDLE;
    return Math.max(1, Math.min(...waiting.map((handle) => handle.due)) - now);
  }

  /** The timer functions a snippet sees. */
  globals() {
    return {
      setTimeout: (callback, delay, ...args) => this.setTimeout(callback, delay, ...args),
      setInterval: (callback, delay, ...args) => this.setInterval(callback, delay, ...args),
      setImmediate: (callback, ...args) => this.setImmediate(callback, ...args),
      clearTimeout: (handle) => this.clear(handle),
      clearInterval: (handle) => this.clear(handle),
      clearImmediate: (handle) => this.clear(handle),
    };
  }
}

module.exports = { IDLE, Loop, RAN };
