'use strict';
/**
 * Differential check of the capture kit against the reference normalisation.
 *
 * Usage: node capture_differential.js <runtime dir> <the runtime's realm dir> [cases]
 *
 * For each generated request config (form bodies and query strings built from a small alphabet of
 * troublesome pieces: brackets, escapes, `__proto__`, `constructor`, `length`, ...; JSON bodies;
 * odd body values; real axios AxiosHeaders and form-data FormData objects) it compares what the
 * reference logged (`reference_normalise.js` in a fresh context, then `JSON.stringify` of the judged
 * keys) with what `wapii_axios_js/js/capture.js` logs, error messages included. Prints one JSON line:
 * `{"cases": n, "differences": [{"case", "reference", "kit"}, ...]}`.
 */

const fs = require('fs');
const path = require('path');
const vm = require('vm');

const Module = require('module');

const REALM = process.argv[3];
/** `wapii-kit/<module>` (how the capture names the runtime's own modules) is a file of the realm. */
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolve(request, ...rest) {
  if (request.startsWith('wapii-kit/')) return path.join(REALM, `${request.slice('wapii-kit/'.length)}.js`);
  return resolveFilename.call(this, request, ...rest);
};
const { captureRequest } = require(path.join(__dirname, '..', '..', 'wapii_axios_js', 'js', 'capture.js'));
const { jsonText } = require(path.join(REALM, 'json_text.js'));

const modules = path.join(process.argv[2], 'node_modules');
const axios = require(path.join(modules, 'axios'));
const FormData = require(path.join(modules, 'form-data'));
const CASES = Number(process.argv[4] || 3000);
const KEYS = ['url', 'method', 'headers', 'params', 'data', 'path_params'];
const known = { __proto__: null, HeaderMap: axios.AxiosHeaders.prototype, Buffer: Buffer.prototype };
const REFERENCE = fs.readFileSync(path.join(__dirname, 'reference_normalise.js'), 'utf8');

/** An error's first line; the source text V8 quotes for a function (`of function '() => 1'`) is left out. */
const firstLine = (error) => `${error && error.name}: ${error && error.message}`.split('\n')[0].replace(/(of function) '.*'$/, '$1');

/** The reference's normaliser in a context of its own (a config can write onto its prototypes). */
function referenceNormaliser() {
  const module = { exports: {} };
  vm.runInContext(`(function (module, exports) {${REFERENCE}\n})`, vm.createContext({}))(module, module.exports);
  return module.exports.normaliseCapturedConfig;
}

const shared = referenceNormaliser();

/**
 * What the reference's reply logged for `config`, or the error it threw; in a fresh context when
 * the case may reach a prototype.
 */
function reference(config, name) {
  const normalise = /__proto__|constructor|prototype/.test(name) ? referenceNormaliser() : shared;
  try {
    normalise(config);
    const logged = JSON.parse(JSON.stringify(config));
    const request = {};
    for (const key of KEYS) if (Object.hasOwn(logged, key)) request[key] = logged[key];
    return `logged ${JSON.stringify(request)}`;
  } catch (error) {
    return `threw ${firstLine(error)}`;
  }
}

/** What the kit logs for `config`, or the error it throws. */
function kit(config) {
  try {
    const captured = captureRequest(config, known);
    return captured.refused === undefined ? `logged ${jsonText(captured.request)}` : `refused ${captured.refused}`;
  } catch (error) {
    return `threw ${firstLine(error)}`;
  }
}

let seed = 20240611;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const PIECES = ['a', 'b', 'k', '0', '1', '10', '[', ']', '[]', '=', '=', '&', '&', '+', '%20', '%', '%41', '%E2%82%AC',
  '__proto__', 'constructor', 'prototype', 'length', 'push', 'toString', 'name', 'x y', '{', '"', '?', '#', 'null'];
const text = (pieces) => Array.from({ length: pieces }, () => pick(PIECES)).join('');

/** [name, make]: `make()` builds a fresh config each time (the reference mutates it). */
const cases = [];
for (let i = 0; cases.length < CASES * 0.6; i++) {
  const body = text(1 + Math.floor(random() * 16));
  cases.push([`form body ${JSON.stringify(body)}`, () => ({ url: 'https://e.x/a', method: 'post', data: body })]);
}
const PARAMS = [() => ({ a: 1 }), () => [], () => 'text', () => null, () => 5, () => ({ length: 1 }), () => new Date(0), () => () => 1];
while (cases.length < CASES) {
  const query = text(1 + Math.floor(random() * 8));
  const params = random() < 0.5 ? -1 : Math.floor(random() * PARAMS.length);
  cases.push([`query ${JSON.stringify(query)} params #${params}`, () => {
    const config = { url: `https://e.x/a?${query}`, method: 'get' };
    if (params >= 0) config.params = PARAMS[params]();
    return config;
  }]);
}
const BODIES = ['', 'null', '{"a":1,"b":[1,{"c":null}]}', '{bad', '{"__proto__":{"x":1},"a":2}', '[1,2]', 0, 5, true, false,
  null, NaN];
BODIES.forEach((body, i) => cases.push([`body #${i}`, () => ({ url: 'https://e.x/a', method: 'post', data: body })]));
const OBJECTS = {
  'nested values': () => ({ list: [1, undefined, () => 1, Symbol('s')], date: new Date(86400000), invalid: new Date('x') }),
  'boxed primitives': () => ({ n: new Number(3), s: new String('s'), b: new Boolean(false) }),
  'null prototype': () => Object.create(null),
  buffer: () => Buffer.from('hi'),
  'typed array': () => new Uint8Array([1, 2]),
  'map, regexp, error': () => ({ m: new Map([[1, 2]]), r: /re/, e: new Error('e') }),
  bigint: () => ({ big: BigInt(1) }),
  cycle: () => { const o = { a: 1 }; o.self = o; return o; },
  'shared, not a cycle': () => { const o = { a: 1 }; return { x: o, y: [o, o] }; },
};
for (const [name, make] of Object.entries(OBJECTS)) {
  cases.push([`data: ${name}`, () => ({ url: 'https://e.x/a', method: 'post', data: make() })]);
  cases.push([`params: ${name}`, () => ({ url: 'https://e.x/a?q=1', params: { v: make() } })]);
  cases.push([`elsewhere: ${name}`, () => ({ url: 'https://e.x/a', other: make() })]);
}
cases.push(['multipart', () => {
  const form = new FormData();
  form.append('a', 'x');
  form.append('b', 2);
  form.append('__proto__', 'p');
  form.append('c', Buffer.from('z'));
  return { url: 'https://e.x/a', method: 'post', data: form };
}]);
cases.push(['FormData by name', () => ({ url: 'https://e.x/a', data: { constructor: { name: 'FormData' }, _streams: ['name="q"', 1, null, 5, 2] } })]);
cases.push(['FormData without a field name', () => ({ url: 'https://e.x/a', data: { constructor: { name: 'FormData' }, _streams: ['x', 1, null] } })]);
cases.push(['headers', () => {
  const headers = new axios.AxiosHeaders({ Accept: 'application/json' });
  Object.assign(headers, { List: ['x', 'y'], Off: false, Unset: null, Mixed: [1, null, undefined] });
  return { url: 'https://e.x/a', headers };
}]);
for (const [name, url] of [['BigInt URL', BigInt(12)], ['number URL', 5], ['no URL', undefined], ['bad escape', 'https://e.x/%E0%A4%A']]) {
  cases.push([name, () => (url === undefined ? { method: 'get' } : { url, method: 'get' })]);
}
/** URLs that are not strings: the text `decodeURIComponent` turned them into, or its TypeError. */
const ODD_URLS = {
  'object URL': () => ({ method: 'DELETE', headers: { a: '1' }, body: { gid: 1 } }),
  'null-prototype URL': () => Object.create(null),
  'list URL': () => ['https://e.x/a?b=1', 'c'],
  'nested list URL': () => [['https://e.x/a'], null, undefined, 7, [[]], { k: 1 }],
  'list URL with an escape': () => ['https://e.x/%41?q=%E2%82%AC', '%'],
  'cyclic list URL': () => { const list = ['https://e.x/a']; list.push(list); return list; },
  'boxed string URL': () => new String('https://e.x/a?x=1'),
  'boxed number URL': () => new Number(7),
  'date URL': () => new Date(0),
  'tagged object URL': () => ({ [Symbol.toStringTag]: 'Tag' }),
  'function URL': () => function url() { return 1; },
  'true URL': () => true,
  'null URL': () => null,
};
for (const [name, make] of Object.entries(ODD_URLS)) cases.push([name, () => ({ url: make(), method: 'get' })]);
cases.push(['path_params', () => ({ url: 'https://e.x/a', path_params: 7 })]);
cases.push(['config is undefined', () => undefined]);

const differences = [];
for (const [name, make] of cases) {
  const expected = reference(make(), name);
  const actual = kit(make());
  if (expected !== actual) differences.push({ case: name, reference: expected, kit: actual });
}
process.stdout.write(`${JSON.stringify({ cases: cases.length, differences })}\n`);
