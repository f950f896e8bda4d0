'use strict';
/**
 * `http`, `https`, `http2`, `net`, `tls`, `dns` and `dgram` in the sandbox: every call that would
 * open a connection, send a datagram or resolve a name fails as on a machine without a network
 * (ENETUNREACH), so such a request ends as a runtime error. The constants and classes that code
 * reads when it is loaded are there.
 */

const EventEmitter = require('events');

function offline(what) {
  const error = new Error(`network access is disabled in the wapii sandbox (${what})`);
  error.code = 'ENETUNREACH';
  error.syscall = what;
  return error;
}

function denied(what) {
  return function deniedCall() {
    throw offline(what);
  };
}

class Agent extends EventEmitter {
  constructor(options = {}) {
    super();
    this.options = { ...options };
    this.maxSockets = Infinity;
    this.sockets = {};
    this.requests = {};
  }

  destroy() {}
}

class Socket extends EventEmitter {
  connect() {
    throw offline('connect');
  }

  setTimeout() {
    return this;
  }

  setNoDelay() {
    return this;
  }

  setKeepAlive() {
    return this;
  }

  destroy() {
    return this;
  }
}

function isIP(input) {
  const text = String(input);
  if (/^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(text)) return 4;
  return /^[0-9a-f:]+$/i.test(text) && text.includes(':') ? 6 : 0;
}

const METHODS = ['ACL', 'BIND', 'CHECKOUT', 'CONNECT', 'COPY', 'DELETE', 'GET', 'HEAD', 'LINK', 'LOCK', 'M-SEARCH', 'MERGE',
  'MKACTIVITY', 'MKCALENDAR', 'MKCOL', 'MOVE', 'NOTIFY', 'OPTIONS', 'PATCH', 'POST', 'PROPFIND', 'PROPPATCH', 'PURGE', 'PUT',
  'REBIND', 'REPORT', 'SEARCH', 'SOURCE', 'SUBSCRIBE', 'TRACE', 'UNBIND', 'UNLINK', 'UNLOCK', 'UNSUBSCRIBE'];
const STATUS_CODES = { 200: 'OK', 201: 'Created', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found',
  304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error' };

const dnsCalls = {};
for (const name of ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCname', 'resolveMx',
  'resolveNs', 'resolveSrv', 'resolveTxt', 'reverse']) {
  dnsCalls[name] = denied(`dns.${name}`);
}

module.exports = {
  Agent,
  globalAgent: new Agent(),
  request: denied('request'),
  get: denied('request'),
  createServer: denied('listen'),
  Server: class Server extends EventEmitter {
    listen() {
      throw offline('listen');
    }
  },
  METHODS,
  STATUS_CODES,
  connect: denied('connect'),
  createConnection: denied('connect'),
  createSecureContext: () => ({}),
  Socket,
  isIP,
  isIPv4: (input) => isIP(input) === 4,
  isIPv6: (input) => isIP(input) === 6,
  createSocket: denied('udp'),
  constants: {},
  ...dnsCalls,
  promises: { ...dnsCalls },
  Resolver: class Resolver {
    constructor() {
      Object.assign(this, dnsCalls);
    }
  },
};
