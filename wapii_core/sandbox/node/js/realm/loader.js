/**
 * The CommonJS loader of the in-context kit (not itself a module: `bundle.js` places this source
 * at the end of the kit script, where `factories` and `links` are in scope).
 *
 * `factories[id]` is the wrapped source of one module (`function (exports, require, module,
 * __filename, __dirname)`), `links[id][request]` the id that `require(request)` from that module
 * resolves to, "~object:<id>" or "~function:<id>" for a module to load on first use, or "!blocked" for a module the sandbox
 * refuses to load. Everything here runs inside
 * the snippet's own context: modules are evaluated on first `require`, once per context. The
 * built-ins the loader itself uses are taken when it boots, before any snippet code, so that a
 * snippet that replaces them cannot make the kit's own modules resolve elsewhere.
 */
function bootLoader(factories, links) {
  'use strict';
  const hasOwn = Object.hasOwn;
  const toString = String;
  const apply = Reflect.apply;
  const cache = Object.create(null);
  const watchers = Object.create(null);
  const BLOCKED = '!blocked';
  const LAZY_MODULE = 'kit/lazy.js';

  function notFound(request, from) {
    const error = new Error(`Cannot find module '${request}'\nRequire stack:\n- ${from}`);
    error.code = 'MODULE_NOT_FOUND';
    return error;
  }

  function blocked(request) {
    const error = new Error(`Cannot load module '${request}' in the wapii sandbox`);
    error.code = 'ERR_WAPII_BLOCKED';
    return error;
  }

  function dirname(id) {
    const slash = id.lastIndexOf('/');
    return slash === -1 ? '.' : id.slice(0, slash);
  }

  /** The id `request` names from module `from`; throws like Node when there is none. */
  function resolve(from, request) {
    const table = hasOwn(links, from) ? links[from] : undefined;
    const target = table !== undefined && hasOwn(table, request) ? table[request] : undefined;
    if (target === BLOCKED) throw blocked(request);
    if (target === undefined) throw notFound(request, from);
    return target;
  }

  /** Evaluates module `id` once and returns its exports. */
  function load(id) {
    const cached = cache[id];
    if (cached !== undefined) return cached.exports;
    const factory = factories[id];
    const module = { id, filename: id, path: dirname(id), exports: {}, loaded: false, children: [], paths: [] };
    module.require = makeRequire(id);
    cache[id] = module;
    try {
      apply(factory, module.exports, [module.exports, module.require, module, id, module.path]);
    } catch (error) {
      delete cache[id];
      throw error;
    }
    module.loaded = true;
    const watcher = watchers[id];
    if (watcher !== undefined) watcher(module.exports);
    return module.exports;
  }

  /** Calls `callback(exports)` once module `id` has been evaluated (a kit module's hook, set before any snippet runs). */
  function watch(id, callback) {
    watchers[id] = callback;
  }

  /** `require` as seen by module `from`. */
  function makeRequire(from) {
    const require = function require(request) {
      const id = resolve(from, toString(request));
      if (!id.startsWith('~')) return load(id);
      const colon = id.indexOf(':');
      const { lazyFunction, lazyObject } = load(LAZY_MODULE);
      const target = id.slice(colon + 1);
      return (id.slice(1, colon) === 'function' ? lazyFunction : lazyObject)(() => load(target));
    };
    require.resolve = (request) => resolve(from, toString(request));
    require.cache = cache;
    return require;
  }

  return { load, makeRequire, resolve, watch };
}
