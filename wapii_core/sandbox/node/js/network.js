'use strict';
/**
 * Cuts the worker process off the network.
 *
 * The mock adapter answers every request a snippet makes through axios, but a snippet can still
 * ask for a real adapter (`adapter: 'http'`), call `fetch`, or load `http`/`net`/`dns` itself.
 * Every TCP/TLS/IPC connection in Node goes through `net.Socket.prototype.connect`, UDP through
 * `dgram`, name resolution through `dns`: each of them fails here as on a machine without a
 * network, so such a request ends as a runtime error (what the reference pipeline, run offline,
 * recorded) and never leaves the machine.
 */

const dgram = require('dgram');
const dns = require('dns');
const net = require('net');

function offline(what) {
  const error = new Error(`network access is disabled in the wapii sandbox (${what})`);
  error.code = 'ENETUNREACH';
  return error;
}

/** Makes every outgoing connection, datagram and DNS query of this process fail. */
function blockNetwork() {
  net.Socket.prototype.connect = function connect() {
    process.nextTick(() => this.destroy(offline('connect')));
    return this;
  };
  for (const method of ['bind', 'connect', 'send']) {
    dgram.Socket.prototype[method] = function denied() {
      throw offline(`udp ${method}`);
    };
  }
  const denyAll = (target, label) => {
    for (const name of Object.getOwnPropertyNames(target)) {
      if (typeof target[name] === 'function' && /^(lookup|resolve|reverse)/.test(name)) {
        target[name] = function denied() {
          throw offline(`${label}.${name}`);
        };
      }
    }
  };
  denyAll(dns, 'dns');
  denyAll(dns.promises, 'dns.promises');
  denyAll(dns.Resolver.prototype, 'dns.Resolver');
  denyAll(dns.promises.Resolver.prototype, 'dns.promises.Resolver');
}

module.exports = { blockNetwork };
