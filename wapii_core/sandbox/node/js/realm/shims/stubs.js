'use strict';
/**
 * What axios loads from follow-redirects, https-proxy-agent and proxy-from-env, which only serve
 * real network requests: the same names, backed by the sandbox's offline `http` / `https`.
 */

const network = require('./network');

class HttpsProxyAgent extends network.Agent {
  constructor() {
    super();
    throw Object.assign(new Error('network access is disabled in the wapii sandbox (proxy)'), { code: 'ENETUNREACH' });
  }
}

module.exports = {
  http: network,
  https: network,
  wrap: () => ({ http: network, https: network }),
  HttpsProxyAgent,
  getProxyForUrl: () => '',
};
