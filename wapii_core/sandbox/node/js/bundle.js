'use strict';
/**
 * Builds the kit: the one script that every snippet's fresh `vm` context starts with.
 *
 * The kit holds, as CommonJS factories, every module a run may load inside its context: the
 * library's npm packages with their dependencies, read from the runtime directory, the library's
 * hook (the adapter's module that sets the library up in each run and captures its requests, ids
 * `lib/...`), and the sandbox's own modules (`realm/`, ids `kit/...`), which stand in for Node's
 * built-in modules. Nothing of the worker's own realm is ever handed to a context: each context
 * loads its own copy of every module, so a snippet only ever reaches objects of its own realm (see
 * `run.js`).
 *
 * The module graph is found statically: each file's `require('<literal>')` calls are resolved with
 * Node's resolver. Built-in modules map to the kit's stand-ins (`BUILTINS`), a few npm packages
 * that only serve real network I/O map to stubs (`PACKAGE_STUBS`), and modules that would let a
 * snippet leave the sandbox are refused (`BLOCKED`). The hook's modules name the kit's own modules
 * as `wapii-kit/<module>` (e.g. `require('wapii-kit/primordials')`).
 */

const fs = require('fs');
const path = require('path');
const { createRequire, builtinModules } = require('module');

const REALM_DIR = path.join(__dirname, 'realm');
const SESSION = 'kit/session.js';
const KIT_PREFIX = 'wapii-kit/';
const SNIPPET = '[stdin]';

/** Node built-in module -> the kit module standing in for it. */
const BUILTINS = {
  buffer: 'npm:buffer',
  crypto: 'kit/shims/crypto.js',
  dgram: 'kit/shims/network.js',
  dns: 'kit/shims/network.js',
  events: 'npm:events',
  fs: 'kit/shims/fs.js',
  'fs/promises': 'kit/shims/fs_promises.js',
  http: 'kit/shims/network.js',
  http2: 'kit/shims/network.js',
  https: 'kit/shims/network.js',
  net: 'kit/shims/network.js',
  os: 'kit/shims/os.js',
  path: 'npm:path-browserify',
  process: 'kit/shims/process.js',
  querystring: 'npm:querystring-es3',
  stream: 'kit/shims/stream.js',
  string_decoder: 'kit/shims/string_decoder.js',
  timers: 'kit/shims/timers.js',
  tls: 'kit/shims/network.js',
  url: 'kit/shims/url.js',
  util: 'kit/shims/util.js',
  zlib: 'kit/shims/zlib.js',
};

/** npm packages replaced by kit modules: some only serve real network I/O, one is slow to load. */
const PACKAGE_STUBS = {
  'es-set-tostringtag': 'kit/shims/set_tostringtag.js',
  'follow-redirects': 'kit/shims/stubs.js',
  'https-proxy-agent': 'kit/shims/stubs.js',
  'proxy-from-env': 'kit/shims/stubs.js',
};

/**
 * Packages that are costly to load (large tables, many modules) and only used inside functions, by
 * what their module exports: `require` from a kit or npm module returns a stand-in that loads the
 * package on first use.
 */
const LAZY = { buffer: 'object', crypto: 'object', 'form-data': 'function', 'mime-types': 'object', tr46: 'object' };

/** Built-in modules that would let a snippet start processes, threads, or reach the worker. */
const BLOCKED = new Set([
  'async_hooks', 'child_process', 'cluster', 'diagnostics_channel', 'inspector', 'module', 'perf_hooks',
  'repl', 'trace_events', 'v8', 'vm', 'wasi', 'worker_threads',
]);


function isBuiltin(request) {
  return request.startsWith('node:') || (builtinModules.includes(request) && !request.endsWith('/'));
}

/**
 * The kit id of the target of `request` from `fromFile`, or '!blocked', or null when unresolvable.
 * `ownDirs` are the directories of the kit's and the hook's own modules (npm packages are resolved
 * from the runtime directory for them).
 */
function target(request, fromFile, runtimeRequire, ownDirs) {
  if (isBuiltin(request)) {
    const name = request.replace(/^node:/, '');
    if (BLOCKED.has(name)) return '!blocked';
    return BUILTINS[name] || null;
  }
  if (Object.hasOwn(PACKAGE_STUBS, request)) return PACKAGE_STUBS[request];
  const own = ownDirs.some((dir) => fromFile.startsWith(dir + path.sep));
  if (own && request.startsWith(KIT_PREFIX)) return require.resolve(path.join(REALM_DIR, request.slice(KIT_PREFIX.length)));
  const local = own && (request.startsWith('./') || request.startsWith('../'));
  try {
    const resolved = local ? require.resolve(path.resolve(path.dirname(fromFile), request)) : (own
      ? runtimeRequire.resolve(request) : createRequire(fromFile).resolve(request));
    return resolved;
  } catch {
    return null;
  }
}

class Graph {
  constructor(runtimeDir, libraryDir) {
    this.libraryDir = libraryDir;
    this.modulesDir = path.join(runtimeDir, 'node_modules');
    this.runtimeRequire = createRequire(path.join(runtimeDir, 'package.json'));
    this.files = new Map(); // id -> absolute file
    this.links = {}; // id -> {request: id}
  }

  /** The id of an absolute file or of a kit/npm reference. */
  idOf(reference) {
    if (reference === '!blocked' || reference.startsWith('kit/')) return reference;
    if (reference.startsWith('npm:')) return this.idOf(this.runtimeRequire.resolve(`${reference.slice(4)}/`));
    if (reference.startsWith(REALM_DIR + path.sep)) return `kit/${path.relative(REALM_DIR, reference).split(path.sep).join('/')}`;
    if (reference.startsWith(this.libraryDir + path.sep)) return `lib/${path.relative(this.libraryDir, reference).split(path.sep).join('/')}`;
    return `npm/${path.relative(this.modulesDir, reference).split(path.sep).join('/')}`;
  }

  fileOf(id) {
    if (id.startsWith('kit/')) return path.join(REALM_DIR, id.slice(4));
    if (id.startsWith('lib/')) return path.join(this.libraryDir, id.slice(4));
    return path.join(this.modulesDir, id.slice(4));
  }

  /** Adds `id` and everything it requires. */
  add(id) {
    if (id === '!blocked' || this.files.has(id)) return;
    const file = this.fileOf(id);
    if (file.endsWith('.mjs')) {
      throw new Error(`${file} is an ES module: start the worker with --no-experimental-require-module`);
    }
    this.files.set(id, file);
    if (file.endsWith('.json')) return;
    const table = {};
    const source = fs.readFileSync(file, 'utf8');
    for (const match of source.matchAll(/\brequire\(\s*(['"])([^'"\n]+)\1\s*\)/g)) {
      const request = match[2];
      const found = target(request, file, this.runtimeRequire, [REALM_DIR, this.libraryDir]);
      if (found === null) continue;
      table[request] = (Object.hasOwn(LAZY, request) ? `~${LAZY[request]}:` : '') + this.idOf(found);
    }
    this.links[id] = table;
    for (const linked of Object.values(table)) this.add(linked.replace(/^~\w+:/, ''));
  }

  /** The snippet's own `require` table: the packages it may name (`packages`) and every built-in. */
  addSnippet(packages) {
    const table = {};
    for (const name of packages) table[name] = this.idOf(this.runtimeRequire.resolve(name));
    for (const name of builtinModules) {
      if (name.startsWith('_')) continue;
      const found = BLOCKED.has(name) ? '!blocked' : BUILTINS[name];
      if (found === undefined) continue;
      table[name] = this.idOf(found);
      table[`node:${name}`] = table[name];
    }
    this.links[SNIPPET] = table;
    for (const linked of Object.values(table)) this.add(linked);
  }
}

/** One module's factory, wrapped the way Node wraps CommonJS modules. */
function factorySource(id, file) {
  let source = fs.readFileSync(file, 'utf8');
  if (file.endsWith('.json')) {
    source = `module.exports = JSON.parse(${JSON.stringify(source)});`;
  } else if (source.startsWith('#!')) {
    source = `//${source}`;
  }
  return `factories[${JSON.stringify(id)}] = function (exports, require, module, __filename, __dirname) {${source}\n};\n`;
}

/**
 * The kit's source: evaluated in a fresh context it returns the kit API of `realm/session.js`
 * (`begin`, `step`, `rejected`, `thrown`, `outcome`), also installed as the read-only global
 * `__wapii_kit`. `library` describes the adapter's side: `dir` (absolute) holds its `hook` module,
 * `packages` are the npm packages a snippet may `require` by name.
 */
function buildKit(runtimeDir, library) {
  const libraryDir = path.resolve(library.dir);
  const graph = new Graph(runtimeDir, libraryDir);
  const hook = graph.idOf(path.join(libraryDir, library.hook));
  graph.add(SESSION);
  graph.add('kit/lazy.js');
  graph.add(hook);
  graph.addSnippet(library.packages);
  const parts = ['(function () {\nconst factories = Object.create(null);\n'];
  for (const [id, file] of graph.files) parts.push(factorySource(id, file));
  parts.push(`const links = JSON.parse(${JSON.stringify(JSON.stringify(graph.links))});\n`);
  parts.push(fs.readFileSync(path.join(REALM_DIR, 'loader.js'), 'utf8'));
  parts.push(`\nconst loader = bootLoader(factories, links);\n`
    + `const kit = loader.load(${JSON.stringify(SESSION)}).createKit(loader, ${JSON.stringify(SNIPPET)}, ${JSON.stringify(hook)});\n`
    + "Object.defineProperty(globalThis, '__wapii_kit', { value: kit });\n"
    + 'return kit;\n})();\n');
  return { source: parts.join(''), modules: graph.files.size };
}

module.exports = { buildKit, BLOCKED };
