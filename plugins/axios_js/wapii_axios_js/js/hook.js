'use strict';
/**
 * The axios library in one run's context (the hook of `wapii_core/sandbox/node`, see its
 * `realm/session.js`): the context's own copies of axios and axios-mock-adapter, and
 * `mock = new MockAdapter(axios)` answering every request with 200 after recording the config it
 * received as the reference's mock logged it (`capture.js`), as the reference's `node -` script
 * set them up. Its bindings are what the prelude gives a program: `axios`, `MockAdapter`, `fs`,
 * `mock`.
 */

const { captureRequest } = require('./capture');

module.exports = function setUp({ require, record, known }) {
  const axios = require('axios');
  known.HeaderMap = axios.AxiosHeaders.prototype;
  const MockAdapter = require('axios-mock-adapter');
  const mock = new MockAdapter(axios);
  /** The mock's reply: capture the config (may throw, as the reference did: a rejection), answer 200. */
  mock.onAny().reply((config) => {
    record(captureRequest(config, known));
    return [200];
  });
  return { axios, MockAdapter, fs: require('fs'), mock };
};
