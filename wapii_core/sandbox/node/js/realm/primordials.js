'use strict';
/**
 * The context's intrinsics as they were when the kit started, before any snippet code ran (the
 * pattern of Node core's `primordials`).
 *
 * A snippet runs in the same realm as the kit and may replace or wrap anything it can reach:
 * `Array.prototype[0]` setters, `Object.prototype.toJSON`, `JSON.parse`, `decodeURIComponent`,
 * `String.prototype.slice`, `Reflect.ownKeys`... The capture (`snapshot.js`, `capture.js`,
 * `json_text.js`), the run's state (`session.js`) and its event loop (`loop.js`) use only what is
 * saved here, called as plain functions (`StringPrototypeSlice(text, 0, 3)`, never
 * `text.slice(0, 3)`), and keep their data in null-prototype objects: then no property lookup
 * reaches a prototype the snippet can change and no code the snippet wrote runs inside them.
 *
 * A saved method is "uncurried": `uncurryThis(String.prototype.slice)` is a bound function that
 * calls the original with its first argument as `this`; calling it consults nothing replaceable.
 * Only methods that read no replaceable property of their arguments are saved (for example
 * `String.prototype.indexOf` with a string argument, not `split`, `replace` or `match`, which look
 * up `Symbol.split`, `Symbol.replace`, `Symbol.match` and `RegExp.prototype.exec`).
 */

const uncurryThis = Function.prototype.bind.bind(Function.prototype.call);

const getDescriptor = Reflect.getOwnPropertyDescriptor;
const typedArrayPrototype = Reflect.getPrototypeOf(Uint8Array.prototype);

module.exports = Object.freeze({
  __proto__: null,
  uncurryThis,
  ReflectApply: Reflect.apply,
  ReflectDefineProperty: Reflect.defineProperty,
  ReflectGetOwnPropertyDescriptor: getDescriptor,
  ReflectGetPrototypeOf: Reflect.getPrototypeOf,
  ReflectOwnKeys: Reflect.ownKeys,
  ArrayIsArray: Array.isArray,
  ArrayPrototype: Array.prototype,
  ArrayPrototypeJoin: Array.prototype.join,
  ArrayPrototypeToString: Array.prototype.toString,
  BigIntPrototype: BigInt.prototype,
  BigIntPrototypeValueOf: uncurryThis(BigInt.prototype.valueOf),
  BooleanPrototype: Boolean.prototype,
  BooleanPrototypeValueOf: uncurryThis(Boolean.prototype.valueOf),
  DatePrototype: Date.prototype,
  DatePrototypeGetTime: uncurryThis(Date.prototype.getTime),
  DatePrototypeToISOString: uncurryThis(Date.prototype.toISOString),
  DateNow: Date.now,
  FunctionPrototypeBind: uncurryThis(Function.prototype.bind),
  FunctionPrototype: Function.prototype,
  JSONParse: JSON.parse,
  JSONStringify: JSON.stringify,
  MapPrototypeDelete: uncurryThis(Map.prototype.delete),
  MapPrototypeGet: uncurryThis(Map.prototype.get),
  MapPrototypeSet: uncurryThis(Map.prototype.set),
  MathMax: Math.max,
  MathMin: Math.min,
  MathTrunc: Math.trunc,
  NumberCtor: Number,
  NumberIsInteger: Number.isInteger,
  NumberPrototype: Number.prototype,
  NumberPrototypeValueOf: uncurryThis(Number.prototype.valueOf),
  ObjectFreeze: Object.freeze,
  ObjectHasOwn: Object.hasOwn,
  ObjectPrototype: Object.prototype,
  ObjectPrototypeToString: Object.prototype.toString,
  ObjectPrototypeValueOf: Object.prototype.valueOf,
  RegExpPrototypeExec: uncurryThis(RegExp.prototype.exec),
  SafeMap: Map,
  SafeWeakMap: WeakMap,
  SafeWeakSet: WeakSet,
  StringCtor: String,
  StringPrototype: String.prototype,
  StringPrototypeCharCodeAt: uncurryThis(String.prototype.charCodeAt),
  StringPrototypeEndsWith: uncurryThis(String.prototype.endsWith),
  StringPrototypeIndexOf: uncurryThis(String.prototype.indexOf),
  StringPrototypeSlice: uncurryThis(String.prototype.slice),
  StringPrototypeStartsWith: uncurryThis(String.prototype.startsWith),
  StringPrototypeValueOf: uncurryThis(String.prototype.valueOf),
  TypedArrayPrototypeGetLength: uncurryThis(getDescriptor(typedArrayPrototype, 'length').get),
  TypedArrayPrototypeGetSymbolToStringTag: uncurryThis(getDescriptor(typedArrayPrototype, Symbol.toStringTag).get),
  WeakMapPrototypeGet: uncurryThis(WeakMap.prototype.get),
  WeakMapPrototypeSet: uncurryThis(WeakMap.prototype.set),
  WeakSetPrototypeAdd: uncurryThis(WeakSet.prototype.add),
  WeakSetPrototypeHas: uncurryThis(WeakSet.prototype.has),
  SymbolToPrimitive: Symbol.toPrimitive,
  SymbolToStringTag: Symbol.toStringTag,
  /** Conversions that read no property of their receiver (only internal slots): safe to call on any value. */
  SlotConversions: Object.freeze([
    Date.prototype.toString, Date.prototype.valueOf, Number.prototype.toString, Number.prototype.valueOf,
    String.prototype.toString, String.prototype.valueOf, Boolean.prototype.toString, Boolean.prototype.valueOf,
    BigInt.prototype.toString, BigInt.prototype.valueOf, Symbol.prototype.toString, Symbol.prototype.valueOf,
    Function.prototype.toString,
  ]),
  DatePrototypeToPrimitive: Date.prototype[Symbol.toPrimitive],
  SymbolPrototypeToPrimitive: Symbol.prototype[Symbol.toPrimitive],
  SafeRangeError: RangeError,
  SafeTypeError: TypeError,
  decodeURIComponent,
  isNaN,
  parseInt,
});
