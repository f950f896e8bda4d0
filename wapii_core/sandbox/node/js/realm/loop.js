'use strict';
/**
 * The event loop of one run, inside its context: timers, immediates and `process.nextTick`.
 *
 * The worker drives it by calling `step()` (through `session.js`) in separate evaluations, so that
 * the context's microtasks (`microtaskMode: 'afterEvaluate'`) run after every callback, as in Node.
 * One step runs one callback: a queued nextTick first, then the earliest due timer, then the
 * oldest immediate. Timers that are `unref()`ed do not keep the run alive, as in Node.
 *
 * The queues live in closures and null-prototype records and are handled with intrinsics saved
 * before the snippet ran: `pending()` is evaluated without a timeout, so nothing a snippet can
 * reach or replace may run in it. A timer handle (what `setTimeout` returns) is an object with
 * Node's methods whose state is kept in a private WeakMap; it leads nowhere else.
 */

const {
  DateNow, MathMax, MathTrunc, NumberCtor, ObjectFreeze, SafeTypeError, SafeWeakMap, WeakMapPrototypeGet,
  WeakMapPrototypeSet,
} = require('./primordials');

const TIMEOUT_MAX = 2 ** 31 - 1;

/** `step()` results besides "ms until the next timer is due". */
const RAN = 0;
const IDLE = -1;

function checkCallback(callback) {
  if (typeof callback !== 'function') {
    const error = new SafeTypeError(`The "callback" argument must be of type function. Received ${callback === null ? 'null' : typeof callback}`);
    error.code = 'ERR_INVALID_ARG_TYPE';
    throw error;
  }
}

function delayOf(value) {
  const delay = NumberCtor(value);
  return delay >= 1 && delay <= TIMEOUT_MAX ? MathTrunc(delay) : 1;
}

/** A first-in first-out list in a null-prototype record. */
function queue() {
  return { __proto__: null, items: { __proto__: null }, head: 0, tail: 0 };
}

function push(list, value) {
  list.items[list.tail] = value;
  list.tail += 1;
}

function shift(list) {
  const value = list.items[list.head];
  delete list.items[list.head];
  list.head += 1;
  return value;
}

const size = (list) => list.tail - list.head;

/** Keeps the records of `list` whose timer is still active. */
function compact(list) {
  let kept = list.head;
  for (let i = list.head; i < list.tail; i++) {
    const record = list.items[i];
    delete list.items[i];
    if (record.active) {
      list.items[kept] = record;
      kept += 1;
    }
  }
  list.tail = kept;
}

/** Timer state, by handle. */
const records = new SafeWeakMap();

/** What `setTimeout`, `setInterval` and `setImmediate` return (Node's Timeout / Immediate methods). */
class Timer {
  ref() {
    const record = WeakMapPrototypeGet(records, this);
    if (record !== undefined) record.referenced = true;
    return this;
  }

  unref() {
    const record = WeakMapPrototypeGet(records, this);
    if (record !== undefined) record.referenced = false;
    return this;
  }

  hasRef() {
    const record = WeakMapPrototypeGet(records, this);
    return record !== undefined && record.referenced;
  }

  refresh() {
    const record = WeakMapPrototypeGet(records, this);
    if (record !== undefined) record.due = DateNow() + record.delay;
    return this;
  }

  close() {
    const record = WeakMapPrototypeGet(records, this);
    if (record !== undefined) record.active = false;
    return this;
  }

  [Symbol.toPrimitive]() {
    const record = WeakMapPrototypeGet(records, this);
    return record === undefined ? NaN : record.id;
  }
}

/**
 * A run's loop: `invoke(callback, args)` runs one callback, reporting what it throws. Returns
 * `{pending, step, nextTick, globals}`.
 */
function createLoop(invoke) {
  const ticks = queue();
  const timers = queue();
  const immediates = queue();
  const byId = { __proto__: null };
  let nextId = 0;

  function schedule(list, callback, args, delay, repeat) {
    checkCallback(callback);
    nextId += 1;
    const handle = new Timer();
    const record = {
      __proto__: null, id: nextId, callback, args, delay, repeat, referenced: true, due: DateNow() + delay, active: true,
    };
    WeakMapPrototypeSet(records, handle, record);
    byId[nextId] = record;
    push(list, record);
    return handle;
  }

  function clear(handle) {
    if (handle === null || handle === undefined) return;
    const record = typeof handle === 'object' ? WeakMapPrototypeGet(records, handle) : byId[NumberCtor(handle)];
    if (record !== undefined) record.active = false;
  }

  function run(record) {
    byId[record.id] = record.active ? record : undefined;
    invoke(record.callback, record.args);
  }

  /** Whether callbacks are queued (timers that were cleared count until the next step drops them). */
  function pending() {
    return size(ticks) + size(timers) + size(immediates) > 0;
  }

  /** Runs one callback; returns RAN, IDLE, or the ms until the next referenced timer is due. */
  function step() {
    if (size(ticks) > 0) {
      const tick = shift(ticks);
      invoke(tick.callback, tick.args);
      return RAN;
    }
    compact(timers);
    compact(immediates);
    const now = DateNow();
    let earliest = null;
    for (let i = timers.head; i < timers.tail; i++) {
      const record = timers.items[i];
      if (earliest === null || record.due < earliest.due || (record.due === earliest.due && record.id < earliest.id)) earliest = record;
    }
    if (earliest !== null && earliest.due <= now) {
      if (earliest.repeat) earliest.due = now + earliest.delay;
      else earliest.active = false;
      run(earliest);
      return RAN;
    }
    if (size(immediates) > 0) {
      const record = shift(immediates);
      record.active = false;
      run(record);
      return RAN;
    }
    let soonest = null;
    for (let i = timers.head; i < timers.tail; i++) {
      const record = timers.items[i];
      if (record.referenced && (soonest === null || record.due < soonest)) soonest = record.due;
    }
    return soonest === null ? IDLE : MathMax(1, soonest - now);
  }

  function nextTick(callback, ...args) {
    checkCallback(callback);
    push(ticks, { __proto__: null, callback, args });
  }

  /** The timer functions a snippet sees. */
  function globals() {
    return {
      setTimeout: (callback, delay, ...args) => schedule(timers, callback, args, delayOf(delay), false),
      setInterval: (callback, delay, ...args) => schedule(timers, callback, args, delayOf(delay), true),
      setImmediate: (callback, ...args) => schedule(immediates, callback, args, 0, false),
      clearTimeout: clear,
      clearInterval: clear,
      clearImmediate: clear,
    };
  }

  return ObjectFreeze({ __proto__: null, pending, step, nextTick, globals });
}

module.exports = { IDLE, RAN, createLoop };
