'use strict';
/**
 * The published WAPIIBench pipeline's execution of one extracted axios call, as its per-sample
 * `node -` script ran it: plain Node, the real axios and axios-mock-adapter, `mock.onAny()`
 * answering 200 after normalising the received config (`reference_normalise.js`, the reference's
 * operations) and logging `JSON.stringify(config)`. Used only by `record_reference.py` to record
 * the published verdicts of this directory's hand-written programs; generated code never runs here.
 *
 * Usage: node reference_mock.js NODE_MODULES < call.js; prints `{"request": ..., "requests": n}`
 * or `{"error": "runtime_error", "detail": ...}`.
 */
const path = require('path');

const modules = process.argv[2];
const axios = require(path.join(modules, 'axios'));
const MockAdapter = require(path.join(modules, 'axios-mock-adapter'));
const { normaliseCapturedConfig } = require(path.join(__dirname, '..', '..', 'plugins', 'axios_js', 'tests', 'js',
  'reference_normalise.js'));

let logged;
let requests = 0;
let failure;
const mock = new MockAdapter(axios);
mock.onAny().reply((config) => {
  normaliseCapturedConfig(config);
  logged = JSON.stringify(config);
  requests += 1;
  return [200];
});
const fail = (error) => { failure = failure || String(error && error.message || error); };
process.on('unhandledRejection', fail);
process.on('uncaughtException', fail);
process.on('exit', () => {
  const answer = failure !== undefined ? { error: 'runtime_error', detail: failure }
    : requests === 0 ? { error: 'no_request', detail: 'no request' }
      : { request: JSON.parse(logged), requests };
  process.stdout.write(JSON.stringify(answer));
});

const call = require('fs').readFileSync(0, 'utf8');
const require_ = (name) => require(path.join(modules, name));
try {
  // eslint-disable-next-line no-new-func
  new Function('axios', 'MockAdapter', 'mock', 'require', call)(axios, MockAdapter, mock, require_);
} catch (error) {
  fail(error);
}
