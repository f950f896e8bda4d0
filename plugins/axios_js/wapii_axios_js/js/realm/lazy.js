'use strict';
/**
 * Stand-ins that create a value on first use, so that a context pays only for what its run uses:
 * `lazyObject(get)` for a namespace object, `lazyFunction(get)` for a function or class (calling,
 * `new`, `instanceof` and property access reach the real one).
 */

function lazy(target, get) {
  let value;
  let loaded = false;
  const real = () => {
    if (!loaded) {
      value = get();
      loaded = true;
    }
    return value;
  };
  const proxy = new Proxy(target, {
    get: (_, key) => Reflect.get(real(), key),
    set: (_, key, next) => Reflect.set(real(), key, next),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => {
      const keys = Reflect.ownKeys(real());
      return typeof target === 'function' && !keys.includes('prototype') ? [...keys, 'prototype'] : keys;
    },
    getOwnPropertyDescriptor: (_, key) => {
      if (typeof target === 'function' && key === 'prototype') return Reflect.getOwnPropertyDescriptor(target, key);
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    apply: (_, self, args) => Reflect.apply(real(), self, args),
    construct: (_, args, newTarget) => Reflect.construct(real(), args, newTarget === proxy ? real() : newTarget),
  });
  return proxy;
}

const lazyObject = (get) => lazy({}, get);
// eslint-disable-next-line func-names
const lazyFunction = (get) => lazy(function () {}, get);

module.exports = { lazyFunction, lazyObject };
