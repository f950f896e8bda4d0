'use strict';
/**
 * Which objects of the context are Proxies.
 *
 * A realm's own code cannot tell a Proxy from its target, and every read of a Proxy runs the traps
 * its creator wrote. `trackProxies(global)` replaces the context's `Proxy` (before any snippet code
 * runs) with a stand-in that behaves the same (`new Proxy(target, handler)`, `Proxy.revocable`,
 * no `prototype`, a `TypeError` without `new`) and records every proxy it makes; the original
 * constructor is kept only here, so no proxy of the context escapes the record, and `isProxy(value)`
 * answers without touching the value.
 */

const {
  FunctionPrototypeBind, ReflectDefineProperty, SafeTypeError, SafeWeakSet, WeakSetPrototypeAdd, WeakSetPrototypeHas,
} = require('./primordials');

const made = new SafeWeakSet();

/** Whether `value` is a proxy made in this context since `trackProxies` ran. */
function isProxy(value) {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && WeakSetPrototypeHas(made, value);
}

/**
 * Replaces `global.Proxy` by a recording stand-in: a bound function (a constructor without a
 * `prototype`, like `Proxy`) whose only own properties are `length`, `name` and `revocable`, none
 * of which leads to the original. Call once, before any other code of the context runs.
 */
function trackProxies(global) {
  const OriginalProxy = global.Proxy;
  const originalRevocable = OriginalProxy.revocable;
  function Proxy(target, handler) {
    if (new.target === undefined) throw new SafeTypeError("Constructor Proxy requires 'new'");
    const proxy = new OriginalProxy(target, handler);
    WeakSetPrototypeAdd(made, proxy);
    return proxy;
  }
  const stand = FunctionPrototypeBind(Proxy, undefined);
  const revocable = function revocable(target, handler) {
    const pair = originalRevocable(target, handler);
    WeakSetPrototypeAdd(made, pair.proxy);
    return pair;
  };
  ReflectDefineProperty(stand, 'name', { __proto__: null, value: 'Proxy', configurable: true });
  ReflectDefineProperty(stand, 'revocable', { __proto__: null, value: revocable, writable: true, configurable: true });
  ReflectDefineProperty(global, 'Proxy', { __proto__: null, value: stand, writable: true, configurable: true });
}

module.exports = { isProxy, trackProxies };
