'use strict';
/**
 * Notices when a run changed state that the worker's later runs share.
 *
 * Each run gets a fresh context and a fresh axios instance, but some objects are necessarily
 * shared: the worker's own built-in prototypes (the reference's form decoding writes through a
 * `__proto__[x]=1` key into `Object.prototype`, exactly as it did in the reference's process),
 * the axios module (its classes, prototypes, module defaults) and the mock adapter. Their own
 * properties (and those of the objects they hold, to a given depth) are recorded at start-up; a run
 * after which any of them was added, removed or replaced makes the worker restart, so that no run
 * can influence the next.
 */

/** The own properties of one object: keys in order, each with its value or accessor pair. */
function record(object) {
  const keys = Reflect.ownKeys(object);
  const slots = [];
  for (const key of keys) {
    const descriptor = Reflect.getOwnPropertyDescriptor(object, key);
    slots.push('value' in descriptor ? descriptor.value : descriptor.get, descriptor.set);
  }
  return { object, prototype: Object.getPrototypeOf(object), keys, slots };
}

function unchanged(entry) {
  const { object, keys, slots } = entry;
  if (Object.getPrototypeOf(object) !== entry.prototype) return false;
  const now = Reflect.ownKeys(object);
  if (now.length !== keys.length) return false;
  for (let i = 0; i < keys.length; i += 1) {
    if (now[i] !== keys[i]) return false;
    const descriptor = Reflect.getOwnPropertyDescriptor(object, keys[i]);
    const first = 'value' in descriptor ? descriptor.value : descriptor.get;
    if (!Object.is(first, slots[2 * i]) || descriptor.set !== slots[2 * i + 1]) return false;
  }
  return true;
}

/** Records `root` and the objects reachable through its data properties, `depth` levels deep. */
function collect(root, depth, entries, seen) {
  if (seen.has(root)) return;
  seen.add(root);
  const entry = record(root);
  entries.push(entry);
  if (depth === 0) return;
  for (const value of entry.slots) {
    if (value !== null && (typeof value === 'object' || typeof value === 'function')) {
      collect(value, depth - 1, entries, seen);
    }
  }
}

class IntegrityGuard {
  /** @param {Array<[object, number]>} roots the shared objects to watch, each with its depth */
  constructor(roots) {
    this.entries = [];
    const seen = new WeakSet();
    for (const [root, depth] of roots) {
      collect(root, depth, this.entries, seen);
    }
  }

  /** Whether every watched object still has exactly the properties it had at start-up. */
  intact() {
    return this.entries.every(unchanged);
  }
}

module.exports = { IntegrityGuard };
