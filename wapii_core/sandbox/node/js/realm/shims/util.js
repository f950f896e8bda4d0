'use strict';
/**
 * `util` in the sandbox: `inherits`, `promisify`, `callbackify`, `deprecate`, `format`, a compact
 * `inspect`, `isDeepStrictEqual`, `types`, `debuglog`, `TextEncoder` and `TextDecoder`.
 */

const { TextDecoder, TextEncoder } = require('../web');

const custom = Symbol.for('nodejs.util.promisify.custom');
const inspectCustom = Symbol.for('nodejs.util.inspect.custom');

function inherits(constructor, superConstructor) {
  Object.defineProperty(constructor, 'super_', { value: superConstructor, writable: true, configurable: true });
  Object.setPrototypeOf(constructor.prototype, superConstructor.prototype);
}

function promisify(original) {
  if (typeof original !== 'function') throw new TypeError('The "original" argument must be of type function');
  if (typeof original[custom] === 'function') return original[custom];
  return function promisified(...args) {
    return new Promise((resolve, reject) => {
      Reflect.apply(original, this, [...args, (error, value) => (error ? reject(error) : resolve(value))]);
    });
  };
}
promisify.custom = custom;

function callbackify(original) {
  return function callbackified(...args) {
    const callback = args.pop();
    Reflect.apply(original, this, args).then((value) => callback(null, value), (error) => callback(error || new Error('Promise was rejected with a falsy value')));
  };
}

function inspect(value, options = {}, depth = 0, seen = new Set()) {
  const limit = typeof options.depth === 'number' ? options.depth : 2;
  if (typeof value === 'string') return depth === 0 ? value : `'${value}'`;
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol') return value.toString();
  if (typeof value === 'function') return `[Function: ${value.name || '(anonymous)'}]`;
  if (value === null || typeof value !== 'object') return String(value);
  if (typeof value[inspectCustom] === 'function') return String(value[inspectCustom](limit - depth, options));
  if (seen.has(value)) return '[Circular *1]';
  if (value instanceof Error) return value.stack || `${value.name}: ${value.message}`;
  if (value instanceof Date) return value.toISOString();
  if (depth > limit) return Array.isArray(value) ? '[Array]' : '[Object]';
  seen.add(value);
  const item = (entry) => inspect(entry, options, depth + 1, seen);
  const text = Array.isArray(value)
    ? `[ ${value.map(item).join(', ')} ]`
    : `{ ${Object.keys(value).map((key) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : `'${key}'`}: ${item(value[key])}`).join(', ')} }`;
  seen.delete(value);
  return text.replace(/^\{ {2}\}$/, '{}').replace(/^\[ {2}\]$/, '[]');
}
inspect.custom = inspectCustom;

function format(pattern, ...args) {
  if (typeof pattern !== 'string') return [pattern, ...args].map((value) => inspect(value)).join(' ');
  let index = 0;
  const text = pattern.replace(/%[sdifjoOc%]/g, (token) => {
    if (token === '%%') return '%';
    if (index >= args.length) return token;
    const value = args[index++];
    switch (token) {
      case '%s': return typeof value === 'string' ? value : inspect(value);
      case '%d': case '%i': return String(token === '%i' ? parseInt(value, 10) : Number(value));
      case '%f': return String(parseFloat(value));
      case '%j': try { return JSON.stringify(value); } catch { return '[Circular]'; }
      case '%c': return '';
      default: return inspect(value);
    }
  });
  return [text, ...args.slice(index).map((value) => (typeof value === 'string' ? value : inspect(value)))].join(' ');
}

function isDeepStrictEqual(a, b) {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keysA = Reflect.ownKeys(a);
  const keysB = Reflect.ownKeys(b);
  return keysA.length === keysB.length && keysA.every((key) => Object.hasOwn(b, key) && isDeepStrictEqual(a[key], b[key]));
}

const tag = (value) => Object.prototype.toString.call(value).slice(8, -1);
const types = {
  isDate: (value) => tag(value) === 'Date',
  isRegExp: (value) => tag(value) === 'RegExp',
  isPromise: (value) => tag(value) === 'Promise',
  isMap: (value) => tag(value) === 'Map',
  isSet: (value) => tag(value) === 'Set',
  isNativeError: (value) => tag(value) === 'Error',
  isTypedArray: (value) => ArrayBuffer.isView(value) && tag(value) !== 'DataView',
  isUint8Array: (value) => tag(value) === 'Uint8Array',
  isArrayBuffer: (value) => tag(value) === 'ArrayBuffer',
  isAnyArrayBuffer: (value) => tag(value) === 'ArrayBuffer' || tag(value) === 'SharedArrayBuffer',
  isAsyncFunction: (value) => tag(value) === 'AsyncFunction',
  isGeneratorFunction: (value) => tag(value) === 'GeneratorFunction',
};

module.exports = {
  TextDecoder,
  TextEncoder,
  callbackify,
  debuglog: () => Object.assign(() => undefined, { enabled: false }),
  deprecate: (fn) => fn,
  format,
  inherits,
  inspect,
  isArray: Array.isArray,
  isDeepStrictEqual,
  promisify,
  types,
};
