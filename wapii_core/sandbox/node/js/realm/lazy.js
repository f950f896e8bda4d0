'use strict';
/**
 * Stand-ins that create a value on first use, so that a context pays only for what its run uses:
 * `lazyObject(get)` for a namespace object, `lazyFunction(get)` for a function or class (calling,
 * `new`, `instanceof` and property access reach the real one). `Proxy` (the recording stand-in of
 * `proxies.js`: this module loads when the run begins) and `Reflect` are taken before any snippet
 * code runs, so stand-ins made after a snippet replaced them still behave.
 */

const SavedProxy = Proxy;
const {
  apply: ReflectApply, construct: ReflectConstruct, get: ReflectGet, getOwnPropertyDescriptor: ReflectGetOwnPropertyDescriptor,
  getPrototypeOf: ReflectGetPrototypeOf, has: ReflectHas, ownKeys: ReflectOwnKeys, set: ReflectSet,
} = Reflect;

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
  const proxy = new SavedProxy(target, {
    get: (_, key) => ReflectGet(real(), key),
    set: (_, key, next) => ReflectSet(real(), key, next),
    has: (_, key) => ReflectHas(real(), key),
    ownKeys: () => {
      const keys = ReflectOwnKeys(real());
      return typeof target === 'function' && !keys.includes('prototype') ? [...keys, 'prototype'] : keys;
    },
    getOwnPropertyDescriptor: (_, key) => {
      if (typeof target === 'function' && key === 'prototype') return ReflectGetOwnPropertyDescriptor(target, key);
      const descriptor = ReflectGetOwnPropertyDescriptor(real(), key);
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => ReflectGetPrototypeOf(real()),
    apply: (_, self, args) => ReflectApply(real(), self, args),
    construct: (_, args, newTarget) => ReflectConstruct(real(), args, newTarget === proxy ? real() : newTarget),
  });
  return proxy;
}

const lazyObject = (get) => lazy({}, get);
// eslint-disable-next-line func-names
const lazyFunction = (get) => lazy(function () {}, get);

module.exports = { lazyFunction, lazyObject };
