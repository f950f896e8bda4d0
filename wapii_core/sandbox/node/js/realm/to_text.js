'use strict';
/**
 * The text JavaScript's `String(value)` gives a request URL that is not a string, computed without
 * running any code the snippet wrote.
 *
 * axios takes any value as a URL: `axios.delete({method: 'DELETE', ...})` sends the object, and
 * the published pipeline's mock judged `decodeURIComponent(config.url)`, i.e. the object's text
 * (`[object Object]`, a list's elements joined by commas, a Date's `toString`). Which text that is
 * follows from the conversion methods the value reaches (`Symbol.toPrimitive`, `toString`,
 * `valueOf`): where they are the realm's own built-ins (saved before the snippet ran, see
 * `primordials.js`), the text is fixed by the value's data, and is computed here from that data,
 * once. Where the text would come from code the program wrote (its own `toString`, a patched
 * `Object.prototype.toString`, a getter or a Proxy on the way), the library would send whatever
 * that code answers on the read it happens to make, so the capture is refused (`refusal`).
 */

const { isProxy } = require('./proxies');
const {
  ArrayPrototypeJoin, ArrayPrototypeToString, DatePrototypeToPrimitive, ObjectFreeze, ObjectHasOwn, ObjectPrototypeToString,
  ObjectPrototypeValueOf, ReflectApply, ReflectGetOwnPropertyDescriptor, ReflectGetPrototypeOf, SafeTypeError,
  SlotConversions, StringCtor, SymbolPrototypeToPrimitive, SymbolToPrimitive, SymbolToStringTag,
} = require('./primordials');

/** Nesting of lists in lists a URL's text is computed through (V8's own limit is far higher; none is honest). */
const MAX_DEPTH = 100;
/** Elements a list's text is computed from (a longer one is no URL a program honestly sends). */
const MAX_ITEMS = 1024 * 1024;
const NO_ARGUMENTS = ObjectFreeze({ __proto__: null, length: 0 });
const CONVERSIONS = ObjectFreeze(['toString', 'valueOf']);

/** `object[key]` along the prototype chain, from data properties only; a getter or a Proxy is refused. */
function lookUp(object, key, where, refusal) {
  for (let o = object; o !== null; o = ReflectGetPrototypeOf(o)) {
    if (isProxy(o)) throw refusal(`a Proxy at ${where}`);
    const slot = ReflectGetOwnPropertyDescriptor(o, key);
    if (slot !== undefined) {
      if (!ObjectHasOwn(slot, 'value')) throw refusal(`a getter at ${where}`);
      return slot.value;
    }
  }
  return undefined;
}

function isSlotConversion(method) {
  for (let i = 0; i < SlotConversions.length; i++) if (SlotConversions[i] === method) return true;
  return false;
}

/**
 * `String(value)` as a pristine realm computes it. `refusal(reason)` makes the error thrown where
 * program code would decide the text; a TypeError is thrown where JavaScript throws one.
 */
function textOf(value, where, refusal) {
  return convert({ __proto__: null, stack: { __proto__: null }, depth: 0, refusal }, value, where);
}

function convert(state, value, where) {
  switch (typeof value) {
    case 'string': return value;
    case 'number': case 'boolean': case 'bigint': case 'undefined': return StringCtor(value);
    case 'symbol': throw new SafeTypeError('Cannot convert a Symbol value to a string');
    default:
  }
  if (value === null) return 'null';
  if (isProxy(value)) throw state.refusal(`a Proxy at ${where}`);
  const primitive = toPrimitive(state, value, where);
  return convert(state, primitive, where);
}

/** OrdinaryToPrimitive(value, "string"), preceded by the `Symbol.toPrimitive` lookup. */
function toPrimitive(state, value, where) {
  const exotic = lookUp(value, SymbolToPrimitive, `${where}[Symbol.toPrimitive]`, state.refusal);
  if (exotic === SymbolPrototypeToPrimitive) throw new SafeTypeError('Cannot convert a Symbol value to a string');
  if (exotic !== undefined && exotic !== null && exotic !== DatePrototypeToPrimitive) {
    throw state.refusal(`the program's own Symbol.toPrimitive gives the text of ${where}`);
  }
  for (let i = 0; i < CONVERSIONS.length; i++) {
    const name = CONVERSIONS[i];
    const method = lookUp(value, name, `${where}.${name}`, state.refusal);
    if (typeof method !== 'function') continue;
    const result = call(state, method, value, where, name);
    if (result === null || (typeof result !== 'object' && typeof result !== 'function')) return result;
  }
  throw new SafeTypeError('Cannot convert object to primitive value');
}

/** What a built-in conversion method answers for `value`; a method the program wrote is refused. */
function call(state, method, value, where, name) {
  if (isProxy(method)) throw state.refusal(`a Proxy at ${where}.${name}`);
  if (method === ObjectPrototypeValueOf) return value;
  if (method === ObjectPrototypeToString) {
    lookUp(value, SymbolToStringTag, `${where}[Symbol.toStringTag]`, state.refusal); // the one read it makes
    return ReflectApply(ObjectPrototypeToString, value, NO_ARGUMENTS);
  }
  if (method === ArrayPrototypeToString) {
    const join = lookUp(value, 'join', `${where}.join`, state.refusal);
    if (typeof join !== 'function') {
      lookUp(value, SymbolToStringTag, `${where}[Symbol.toStringTag]`, state.refusal);
      return ReflectApply(ObjectPrototypeToString, value, NO_ARGUMENTS);
    }
    if (join !== ArrayPrototypeJoin) throw state.refusal(`the program's own join gives the text of ${where}`);
    return joined(state, value, where);
  }
  if (isSlotConversion(method)) return ReflectApply(method, value, NO_ARGUMENTS);
  throw state.refusal(`the program's own ${name} gives the text of ${where}`);
}

/** `Array.prototype.join.call(list, ',')`: null and undefined elements are empty, a list inside itself too. */
function joined(state, list, where) {
  for (let i = 0; i < state.depth; i++) if (state.stack[i] === list) return '';
  if (state.depth >= MAX_DEPTH) throw state.refusal(`nesting deeper than ${MAX_DEPTH} levels at ${where}`);
  state.stack[state.depth] = list;
  state.depth += 1;
  try {
    const length = lookUp(list, 'length', `${where}.length`, state.refusal);
    if (typeof length !== 'number' || length > MAX_ITEMS) throw state.refusal(`a list of ${StringCtor(length)} elements at ${where}`);
    let text = '';
    for (let i = 0; i < length; i++) {
      const item = lookUp(list, StringCtor(i), `${where}[${i}]`, state.refusal);
      const part = item === undefined || item === null ? '' : convert(state, item, `${where}[${i}]`);
      text = i === 0 ? part : `${text},${part}`;
    }
    return text;
  } finally {
    state.depth -= 1;
    state.stack[state.depth] = undefined;
  }
}

module.exports = { textOf };
