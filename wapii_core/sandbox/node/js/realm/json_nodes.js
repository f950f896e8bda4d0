'use strict';
/**
 * The kit's own copy of a captured value: what `JSON.stringify` would see of it, held in
 * null-prototype records that no snippet can reach.
 *
 * - strings, finite or not numbers, booleans and `null` stand for themselves;
 * - `UNDEFINED`, `FUNCTION` and `SYMBOL` stand for values `JSON.stringify` leaves out of an object
 *   (and writes as `null` in an array); `bigintNode` for a BigInt, `CYCLE` for an object met again
 *   inside itself (both make `JSON.stringify` throw, see `json_text.js`);
 * - `objectNode()` (members in insertion order, `members` a null-prototype object, so that
 *   `Reflect.ownKeys` gives JSON's key order) and `arrayNode()` (`items` by index, `length`);
 * - `convertedNode(value)`: a built-in object whose own `toJSON` the published pipeline's
 *   `JSON.stringify` called (a Date, a Buffer, a boxed primitive), with what that gave.
 *
 * `getMember` and `setMember` apply JavaScript's `container[key]` and `container[key] = value` (in
 * strict mode, in a realm whose built-ins nobody changed) to these records, for the reference's
 * normalisation (`capture.js`): they throw the `TypeError`s and `RangeError`s that JavaScript
 * throws, and a key that names a member of a built-in prototype (`constructor`, `__proto__`,
 * `push`, ...) reads as a detached stand-in for that built-in (see `inheritance`), so that what is
 * written there stays out of the result, as it did in the reference (which wrote it onto the
 * built-in itself).
 */

const {
  NumberCtor, NumberIsInteger, ObjectFreeze, ReflectGetOwnPropertyDescriptor, ReflectOwnKeys, SafeRangeError, SafeTypeError, StringCtor,
  StringPrototypeCharCodeAt, StringPrototypeSlice,
} = require('./primordials');

const OBJECT = 'object';
const ARRAY = 'array';
const CONVERTED = 'converted';
const BIGINT = 'bigint';
const ZERO = BigInt(0);

const sentinel = (name) => ObjectFreeze({ __proto__: null, kind: name });
const UNDEFINED = sentinel('undefined');
const FUNCTION = sentinel('function');
const SYMBOL = sentinel('symbol');
const CYCLE = sentinel('cycle');

function objectNode() {
  return { __proto__: null, kind: OBJECT, members: { __proto__: null } };
}

function arrayNode() {
  return { __proto__: null, kind: ARRAY, items: { __proto__: null }, length: 0 };
}

function convertedNode(value) {
  return { __proto__: null, kind: CONVERTED, value };
}

function bigintNode(value) {
  return { __proto__: null, kind: BIGINT, text: StringCtor(value), zero: value === ZERO };
}

/** Whether `value` (a primitive or a node) is truthy in JavaScript. */
function truthy(value) {
  if (value === UNDEFINED) return false;
  if (value !== null && typeof value === 'object') return value.kind !== BIGINT || !value.zero;
  return !!value;
}

/** Whether an object member of this value is left out by `JSON.stringify`. */
function omitted(value) {
  return value === UNDEFINED || value === FUNCTION || value === SYMBOL;
}

function hasMember(node, key) {
  return ReflectGetOwnPropertyDescriptor(node.members, key) !== undefined;
}

/** Own member `key` of an object node, or UNDEFINED. */
function ownMember(node, key) {
  return hasMember(node, key) ? node.members[key] : UNDEFINED;
}

/** `key` if it is a canonical array index ("0", "17", not "017" or "4294967295"), else -1. */
function arrayIndex(key) {
  const length = key.length;
  if (length === 0 || length > 10 || (length > 1 && StringPrototypeCharCodeAt(key, 0) === 48)) return -1;
  for (let i = 0; i < length; i++) {
    const code = StringPrototypeCharCodeAt(key, i);
    if (code < 48 || code > 57) return -1;
  }
  const index = NumberCtor(key);
  return index < 4294967295 ? index : -1;
}

/** What each own string-keyed member of the prototypes is: 'object', or the name of a function. */
function membersOf(...prototypes) {
  const members = { __proto__: null };
  for (let p = prototypes.length - 1; p >= 0; p--) {
    const keys = ReflectOwnKeys(prototypes[p]);
    for (let i = 0; i < keys.length; i++) {
      if (typeof keys[i] !== 'string') continue;
      const slot = ReflectGetOwnPropertyDescriptor(prototypes[p], keys[i]);
      members[keys[i]] = typeof slot.value === 'function' ? slot.value.name : 'object';
    }
  }
  return ObjectFreeze(members);
}

/** Members each kind of value inherits from the built-in prototypes, as they were before any snippet ran. */
const INHERITED = ObjectFreeze({
  __proto__: null,
  object: membersOf(Object.prototype),
  array: membersOf(Array.prototype, Object.prototype),
  string: membersOf(String.prototype, Object.prototype),
  number: membersOf(Number.prototype, Object.prototype),
  boolean: membersOf(Boolean.prototype, Object.prototype),
  function: membersOf(Function.prototype, Object.prototype),
});

/**
 * The built-in objects one normalisation has reached through inherited members (`a[__proto__]`,
 * `a[constructor]`): each stands detached from the result, and what is written onto
 * `Object.prototype` or `Array.prototype` is then inherited by the objects (lists) of the result,
 * as it was in the reference's realm.
 */
function inheritance() {
  return { __proto__: null };
}

function describePrimitive(value) {
  if (value === UNDEFINED) return 'undefined';
  if (value === null) return 'null';
  return `${typeof value} '${StringCtor(value)}'`;
}

/** The detached stand-in for the built-in called `name` ('object' or the name of a function). */
function shadow(inherited, name, what) {
  if (inherited[name] === undefined) {
    const node = objectNode();
    if (what !== 'object') node.fn = what;
    inherited[name] = node;
  }
  return inherited[name];
}

/** The stand-in for the built-in `INHERITED[kind][key]`. */
function builtin(inherited, kind, key) {
  const what = INHERITED[kind][key];
  if (key === '__proto__') return shadow(inherited, `${kind === 'array' ? 'Array' : 'Object'}.prototype`, 'object');
  return shadow(inherited, `${kind}.${key}`, what);
}

/** A member written onto Object.prototype (or Array.prototype for a list) by this normalisation. */
function polluted(inherited, kind, key) {
  const own = kind === ARRAY ? inherited['Array.prototype'] : undefined;
  if (own !== undefined && hasMember(own, key)) return own.members[key];
  const shared = inherited['Object.prototype'];
  return shared !== undefined && hasMember(shared, key) ? shared.members[key] : undefined;
}

/** Reads `container[key]` (`key` a string; `inherited` from `inheritance()`). */
function getMember(container, key, inherited) {
  if (container === UNDEFINED || container === null) {
    throw new SafeTypeError(`Cannot read properties of ${describePrimitive(container)} (reading '${key}')`);
  }
  let kind = typeof container;
  if (kind === 'string') {
    const index = arrayIndex(key);
    if (index >= 0) return index < container.length ? StringPrototypeSlice(container, index, index + 1) : UNDEFINED;
    if (key === 'length') return container.length;
  } else if (kind === 'object') {
    kind = container.kind;
    if (kind === OBJECT) {
      if (hasMember(container, key)) return container.members[key];
      if (container.fn !== undefined) {
        if (key === 'prototype' && CONSTRUCTORS[container.fn] !== undefined) return shadow(inherited, `${container.fn}.prototype`, 'object');
        kind = 'function';
      }
    } else if (kind === ARRAY) {
      const index = arrayIndex(key);
      if (index >= 0) return index < container.length && ReflectGetOwnPropertyDescriptor(container.items, key) !== undefined ? container.items[key] : UNDEFINED;
      if (key === 'length') return container.length;
    } else if (container === FUNCTION) {
      kind = 'function';
    } else {
      kind = 'object'; // converted built-ins, BigInts and symbols: nothing they inherit is read here
    }
    if (kind === OBJECT || kind === ARRAY) {
      const written = polluted(inherited, kind, key);
      if (written !== undefined) return written;
    }
  }
  const members = INHERITED[kind];
  return members !== undefined && members[key] !== undefined ? builtin(inherited, kind, key) : UNDEFINED;
}

/** Own properties of a built-in function that an assignment cannot change (`prototype`: of a constructor). */
const READ_ONLY = ObjectFreeze({ __proto__: null, name: true, length: true, prototype: true });
const CONSTRUCTORS = ObjectFreeze({ __proto__: null, Object: true, Array: true, String: true, Number: true, Boolean: true, Function: true });

/** Sets the length of an array node as `array.length = value` does. */
function setLength(array, value) {
  const length = NumberCtor(value);
  if (!NumberIsInteger(length) || length < 0 || length > 4294967295) throw new SafeRangeError('Invalid array length');
  for (let i = length; i < array.length; i++) delete array.items[i];
  array.length = length;
}

/** Applies `container[key] = value` (strict mode). */
function setMember(container, key, value) {
  if (container === UNDEFINED || container === null) {
    throw new SafeTypeError(`Cannot set properties of ${describePrimitive(container)} (setting '${key}')`);
  }
  if (typeof container !== 'object' && key === '__proto__') return; // Object.prototype's setter ignores primitives
  if (typeof container === 'string' && (key === 'length' || (arrayIndex(key) >= 0 && arrayIndex(key) < container.length))) {
    throw new SafeTypeError(`Cannot assign to read only property '${key}' of ${describePrimitive(container)}`);
  }
  if (typeof container !== 'object' || container.kind === BIGINT || container === SYMBOL) {
    const what = container === SYMBOL ? 'symbol' : container.kind === BIGINT ? `bigint '${container.text}'` : describePrimitive(container);
    throw new SafeTypeError(`Cannot create property '${key}' on ${what}`);
  }
  if (container.kind === OBJECT && container.fn !== undefined && READ_ONLY[key] !== undefined
      && (key !== 'prototype' || CONSTRUCTORS[container.fn] !== undefined)) {
    throw new SafeTypeError(`Cannot assign to read only property '${key}' of function 'function ${container.fn}() { [native code] }'`);
  }
  if (container.kind === OBJECT) {
    // an ordinary object's `__proto__` is Object.prototype's accessor: it keeps no own member
    if (key !== '__proto__' || hasMember(container, key)) container.members[key] = value;
  } else if (container.kind === ARRAY) {
    const index = arrayIndex(key);
    if (index >= 0) {
      container.items[key] = value;
      if (index >= container.length) container.length = index + 1;
    } else if (key === 'length') {
      setLength(container, value);
    }
  } else if (container === FUNCTION && (key === 'name' || key === 'length')) {
    throw new SafeTypeError(`Cannot assign to read only property '${key}' of function`);
  }
  // a converted built-in or a function keeps the property where JSON does not look
}

module.exports = {
  ARRAY, BIGINT, CONVERTED, CYCLE, FUNCTION, OBJECT, SYMBOL, UNDEFINED,
  arrayNode, bigintNode, convertedNode, getMember, hasMember, inheritance, objectNode, omitted, ownMember, setMember,
  truthy,
};
