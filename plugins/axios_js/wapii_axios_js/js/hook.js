'use strict';
/**
 * The axios library in one run's context (the hook of `wapii_core/sandbox/node`, see its
 * `realm/session.js`): the context's own copies of axios and axios-mock-adapter, and
 * `mock = new MockAdapter(axios)` answering every request with 200 after recording the config it
 * received as the reference's mock logged it (`capture.js`), as the reference's `node -` script
 * set them up. Its bindings are what the prelude gives a program: `axios`, `MockAdapter`, `fs`,
 * `mock`. When the run's requests are answered (`ask`, see `realm/session.js`), the reply is the
 * responder's answer instead: its status, its body as the data axios's own response transforms read
 * (JSON parsed as from a server), its headers (lower-case names, as axios gives a server's).
 */

const { captureRequest } = require('./capture');

/** An answer's header list as the object axios gives for a server's headers (lower-case names). */
function headerObject(list) {
  const headers = { __proto__: null };
  for (let i = 0; i < list.length; i++) {
    const name = `${list[i][0]}`.toLowerCase();
    headers[name] = headers[name] === undefined ? list[i][1] : `${headers[name]}, ${list[i][1]}`;
  }
  return headers;
}

module.exports = function setUp({ require, record, known, ask }) {
  const axios = require('axios');
  known.HeaderMap = axios.AxiosHeaders.prototype;
  const MockAdapter = require('axios-mock-adapter');
  const mock = new MockAdapter(axios);
  /** The mock's reply: capture the config (may throw, as the reference did: a rejection), answer 200. */
  mock.onAny().reply((config) => {
    const captured = captureRequest(config, known);
    record(captured);
    const answered = ask(captured);
    if (answered === undefined) return [200];
    return answered.then((answer) => [answer.status, answer.body, { ...headerObject(answer.headers) }]);
  });
  return { axios, MockAdapter, fs: require('fs'), mock };
};
