'use strict';
/**
 * Reading the request config that reached the mock adapter into the kit's own records
 * (`json_nodes.js`), once, without running any code the snippet wrote.
 *
 * What is read is what `JSON.stringify(config)` read in the published pipeline, with its answers
 * for the built-ins whose `toJSON` it called (a Date is its ISO string or null, a Buffer
 * `{type: 'Buffer', data: [...]}`, axios's AxiosHeaders its header map with lists joined by ", ",
 * a boxed primitive its value) taken from the intrinsics saved before the snippet ran
 * (`primordials.js`), never from the objects' methods. Otherwise only own enumerable data
 * properties are read: no `toJSON` is called, no getter, no Proxy trap. In the judged keys of the
 * config (`LOGGED_KEYS`) a getter, a Proxy or nesting deeper than `MAX_DEPTH` makes the capture
 * unreadable (`refusal`); elsewhere in the config such a value is skipped, since only a BigInt or a
 * cycle there mattered (they made `JSON.stringify` throw).
 */

const { isProxy } = require('./proxies');
const { textOf } = require('./to_text');
const {
  ArrayIsArray, ArrayPrototype, BigIntPrototype, BigIntPrototypeValueOf, BooleanPrototype, BooleanPrototypeValueOf,
  DatePrototype, DatePrototypeGetTime, DatePrototypeToISOString, NumberPrototype, NumberPrototypeValueOf, ObjectFreeze,
  ObjectHasOwn,
  ObjectPrototype, ReflectGetOwnPropertyDescriptor, ReflectGetPrototypeOf, ReflectOwnKeys, SafeTypeError, SafeWeakSet,
  StringCtor, StringPrototype, StringPrototypeSlice, StringPrototypeValueOf, TypedArrayPrototypeGetLength,
  TypedArrayPrototypeGetSymbolToStringTag, WeakSetPrototypeAdd, WeakSetPrototypeHas,
} = require('./primordials');
const {
  CYCLE, FUNCTION, SYMBOL, UNDEFINED, arrayNode, bigintNode, convertedNode, objectNode,
} = require('./json_nodes');

/** The keys of the logged config that the judging reads (metrics.md §3; `path_params` may be user-set). */
const LOGGED_KEYS = ObjectFreeze(['url', 'method', 'headers', 'params', 'data', 'path_params']);
/** Nesting (objects and lists) a judged value may have; the reference judged nothing deeper than a few levels. */
const MAX_DEPTH = 100;
/** Elements a list may have: a longer one could not fit in a worker's answer (4 Mi characters). */
const MAX_ITEMS = 4 * 1024 * 1024;
/** Extra kinds of node, for the config's `data` only (see capture.js's decodeBody). */
const FORM_DATA = 'form-data';
const THROWS = 'throws';

const refusals = new SafeWeakSet();

/** A capture that cannot be read faithfully: `reason` says what and where. */
function refusal(reason) {
  const value = ObjectFreeze({ __proto__: null, reason });
  WeakSetPrototypeAdd(refusals, value);
  return value;
}

function isRefusal(value) {
  return value !== null && typeof value === 'object' && WeakSetPrototypeHas(refusals, value);
}

const isLoggedKey = (key) => {
  for (let i = 0; i < LOGGED_KEYS.length; i++) if (LOGGED_KEYS[i] === key) return true;
  return false;
};

/**
 * The state of one read: `known` holds prototypes identified when the run began (`HeaderMap`: the
 * library's header map, e.g. axios's AxiosHeaders, set by the adapter's hook and, once the `buffer` module is loaded, `Buffer`); `stack` the objects being
 * read (for cycles); `strict` whether an unreadable value is refused (in a judged key) or skipped.
 */
function reader(known) {
  return { __proto__: null, known, stack: { __proto__: null }, depth: 0, strict: true };
}

/** Unreadable value at `where`: refused in a judged key, skipped (UNDEFINED) elsewhere. */
function unreadable(state, what, where) {
  if (state.strict) throw refusal(`${what} at ${where.length > 60 ? `${StringPrototypeSlice(where, 0, 57)}...` : where}`);
  return UNDEFINED;
}

/** The descriptor's value, or what an accessor property (never called) reads as. */
function slotValue(state, slot, where) {
  return ObjectHasOwn(slot, 'value') ? read(state, slot.value, where) : unreadable(state, 'a getter', where);
}

/** The node for `value`, found at `where` (for messages: `params.q`, `data[0]`). */
function read(state, value, where) {
  switch (typeof value) {
    case 'string': case 'number': case 'boolean': return value;
    case 'undefined': return UNDEFINED;
    case 'function': return FUNCTION;
    case 'symbol': return SYMBOL;
    case 'bigint': return bigintNode(value);
    default:
  }
  if (value === null) return null;
  if (isProxy(value)) return unreadable(state, 'a Proxy', where);
  for (let i = 0; i < state.depth; i++) if (state.stack[i] === value) return CYCLE;
  if (state.depth >= MAX_DEPTH) return unreadable(state, `nesting deeper than ${MAX_DEPTH} levels`, where);
  state.stack[state.depth] = value;
  state.depth += 1;
  try {
    return readObject(state, value, where);
  } finally {
    state.depth -= 1;
    state.stack[state.depth] = undefined;
  }
}

function readObject(state, value, where) {
  const prototype = ReflectGetPrototypeOf(value);
  if (prototype === ObjectPrototype || prototype === null) return readMembers(state, value, where);
  if (prototype === ArrayPrototype && ArrayIsArray(value)) return readItems(state, value, where);
  const builtin = readBuiltin(state, value, prototype, where);
  if (builtin !== undefined) return builtin;
  return ArrayIsArray(value) ? readItems(state, value, where) : readMembers(state, value, where);
}

/** A built-in whose own `toJSON` (or internal value) JSON.stringify used; undefined for others. */
function readBuiltin(state, value, prototype, where) {
  const { known } = state;
  if (prototype === known.HeaderMap) return readHeaders(state, value, where);
  if (prototype === known.Buffer && TypedArrayPrototypeGetSymbolToStringTag(value) === 'Uint8Array') {
    const data = arrayNode();
    const length = TypedArrayPrototypeGetLength(value);
    for (let i = 0; i < length; i++) data.items[i] = value[i];
    data.length = length;
    const node = objectNode();
    node.members.type = 'Buffer';
    node.members.data = data;
    return convertedNode(node);
  }
  for (let p = prototype; p !== null && !isProxy(p); p = ReflectGetPrototypeOf(p)) {
    const unbox = p === DatePrototype ? dateJson : p === NumberPrototype ? NumberPrototypeValueOf
      : p === StringPrototype ? StringPrototypeValueOf : p === BooleanPrototype ? BooleanPrototypeValueOf
        : p === BigIntPrototype ? BigIntPrototypeValueOf : undefined;
    if (unbox === undefined) continue;
    let inner;
    try {
      inner = unbox(value);
    } catch {
      return undefined; // inherits from the prototype without being one (no internal value)
    }
    return convertedNode(typeof inner === 'bigint' ? bigintNode(inner) : inner);
  }
  return undefined;
}

/** Own enumerable string-keyed data properties, in JSON's order. */
function readMembers(state, value, where) {
  const node = objectNode();
  const keys = ReflectOwnKeys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key !== 'string') continue;
    const slot = ReflectGetOwnPropertyDescriptor(value, key);
    if (slot !== undefined && slot.enumerable) node.members[key] = slotValue(state, slot, `${where}.${key}`);
  }
  return node;
}

/** Elements 0 to length - 1 (a hole is undefined, as pristine JSON.stringify sees it). */
function readItems(state, value, where) {
  const node = arrayNode();
  const length = ReflectGetOwnPropertyDescriptor(value, 'length').value;
  if (length > MAX_ITEMS) return unreadable(state, `a list of ${length} elements`, where);
  for (let i = 0; i < length; i++) {
    const slot = ReflectGetOwnPropertyDescriptor(value, StringCtor(i));
    node.items[i] = slot === undefined ? UNDEFINED : slotValue(state, slot, `${where}[${i}]`);
  }
  node.length = length;
  return node;
}

/** AxiosHeaders#toJSON(key): set headers (not null, undefined or false), lists joined by ", ". */
function readHeaders(state, value, where) {
  const node = objectNode();
  const keys = ReflectOwnKeys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key !== 'string') continue;
    const slot = ReflectGetOwnPropertyDescriptor(value, key);
    if (slot === undefined || !slot.enumerable) continue;
    const inner = `${where}.${key}`;
    if (!ObjectHasOwn(slot, 'value')) {
      node.members[key] = unreadable(state, 'a getter', inner);
      continue;
    }
    const header = slot.value;
    if (header === null || header === undefined || header === false) continue;
    node.members[key] = ArrayIsArray(header) && !isProxy(header) ? joined(state, header, inner) : read(state, header, inner);
  }
  return node;
}

/** `list.join(', ')` of a header list whose elements are primitives. */
function joined(state, list, where) {
  let text = '';
  const length = ReflectGetOwnPropertyDescriptor(list, 'length').value;
  if (length > MAX_ITEMS) return unreadable(state, `a list of ${length} elements`, where);
  for (let i = 0; i < length; i++) {
    const slot = ReflectGetOwnPropertyDescriptor(list, StringCtor(i));
    if (slot !== undefined && !ObjectHasOwn(slot, 'value')) return unreadable(state, 'a getter', `${where}[${i}]`);
    const item = slot === undefined ? undefined : slot.value;
    if (item !== null && (typeof item === 'object' || typeof item === 'function')) {
      return unreadable(state, 'an object in a header list', `${where}[${i}]`);
    }
    if (typeof item === 'symbol') throw new SafeTypeError('Cannot convert a Symbol value to a string');
    const part = item === null || item === undefined ? '' : StringCtor(item);
    text = i === 0 ? part : `${text}, ${part}`;
  }
  return text;
}

/** Date.prototype.toJSON of a Date: its ISO string, or null for an invalid date. */
function dateJson(date) {
  const time = DatePrototypeGetTime(date);
  return time === time ? DatePrototypeToISOString(date) : null; // eslint-disable-line no-self-compare
}

/**
 * `object[key]` as a realm without getters or Proxies would answer it: own data properties along
 * the prototype chain. A getter or a Proxy on the way makes the capture unreadable.
 */
function dataProperty(object, key, where) {
  for (let o = object; o !== null; o = ReflectGetPrototypeOf(o)) {
    if (isProxy(o)) throw refusal(`a Proxy at ${where}`);
    const slot = ReflectGetOwnPropertyDescriptor(o, key);
    if (slot !== undefined) {
      if (!ObjectHasOwn(slot, 'value')) throw refusal(`a getter at ${where}.${key}`);
      return slot.value;
    }
  }
  return undefined;
}

/**
 * The config's `data`: a multipart FormData (what `data.constructor.name === 'FormData'` said in
 * the reference) as its `_streams` parts; an object whose `constructor` cannot be read as the
 * TypeError the reference got; anything else read as above.
 */
function readData(state, data) {
  if (data === null || typeof data !== 'object' || isProxy(data)) return read(state, data, 'data');
  const constructor = dataProperty(data, 'constructor', 'data');
  if (constructor === undefined || constructor === null) {
    return { __proto__: null, kind: THROWS, message: `Cannot read properties of ${constructor} (reading 'name')` };
  }
  const isObject = typeof constructor === 'object' || typeof constructor === 'function';
  if (!isObject || dataProperty(constructor, 'name', 'data.constructor') !== 'FormData') return read(state, data, 'data');
  return { __proto__: null, kind: FORM_DATA, parts: read(state, dataProperty(data, '_streams', 'data'), 'data._streams') };
}

const isObject = (value) => value !== null && (typeof value === 'object' || typeof value === 'function');

/**
 * The whole config (its own enumerable keys) as an object node; throws a refusal for an
 * unreadable judged value. A config that is not an object is read as the TypeError the reference
 * got from `config.url`. A URL that is an object (axios sends whatever it is given) is read as the
 * text the reference's `decodeURIComponent(config.url)` converted it to (`to_text.js`).
 */
function snapshotConfig(config, known) {
  if (config === null || config === undefined) {
    throw new SafeTypeError(`Cannot read properties of ${config} (reading 'url')`);
  }
  if (typeof config !== 'object' || isProxy(config)) throw refusal('the request config is not a plain object');
  const state = reader(known);
  state.stack[0] = config;
  state.depth = 1;
  const node = objectNode();
  const keys = ReflectOwnKeys(config);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key !== 'string') continue;
    const slot = ReflectGetOwnPropertyDescriptor(config, key);
    if (slot === undefined || !slot.enumerable) continue;
    state.strict = isLoggedKey(key);
    if (key === 'data' && ObjectHasOwn(slot, 'value')) node.members[key] = readData(state, slot.value);
    else if (key === 'url' && ObjectHasOwn(slot, 'value') && isObject(slot.value)) node.members[key] = textOf(slot.value, 'url', refusal);
    else node.members[key] = slotValue(state, slot, key);
  }
  return node;
}

/** One value read strictly (see above) into a node; `where` names it in a refusal. */
function readValue(value, where, known) {
  return read(reader(known), value, where);
}

module.exports = { FORM_DATA, LOGGED_KEYS, THROWS, isRefusal, readValue, refusal, snapshotConfig };
