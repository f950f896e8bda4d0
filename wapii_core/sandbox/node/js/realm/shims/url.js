'use strict';
/**
 * `url` in the sandbox: the WHATWG `URL` and `URLSearchParams` (from the whatwg-url package, the
 * reference implementation of the standard Node follows), the legacy `parse`, `format` and
 * `resolve`, and the file-URL and domain helpers.
 */

const querystring = require('querystring');
const { lazyFunction } = require('../lazy');

const URL = lazyFunction(() => require('whatwg-url').URL);
const URLSearchParams = lazyFunction(() => require('whatwg-url').URLSearchParams);

const LEGACY = /^(?:([a-z][a-z0-9+.-]*:))?(?:(\/\/)(?:([^@/?#]*)@)?(\[[^\]]*\]|[^:/?#]*)(?::(\d*))?)?([^?#]*)(\?[^#]*)?(#.*)?$/i;

/** The legacy `url.parse()` result for the common URL shapes. */
function parse(text, parseQuery = false) {
  const match = LEGACY.exec(String(text).trim()) || [];
  const [, protocol = null, slashes, auth = null, rawHost, port = null, pathname = '', search = null, hash = null] = match;
  const hostname = rawHost === undefined || rawHost === '' ? null : rawHost.toLowerCase().replace(/^\[|\]$/g, '');
  const host = hostname === null ? null : `${rawHost.toLowerCase()}${port ? `:${port}` : ''}`;
  const query = search === null ? (parseQuery ? {} : null) : (parseQuery ? querystring.parse(search.slice(1)) : search.slice(1));
  const path = `${pathname || (hostname !== null ? '/' : '')}${search || ''}` || null;
  return {
    protocol: protocol && protocol.toLowerCase(), slashes: Boolean(slashes), auth: auth && decodeURIComponent(auth), host, port,
    hostname, hash, search, query, pathname: pathname || (hostname !== null ? '/' : null), path, href: format({
      protocol, slashes, auth, host, pathname: pathname || (hostname !== null ? '/' : ''), search, hash,
    }),
  };
}

function format(value) {
  if (typeof value === 'string') return value;
  if (Object.prototype.toString.call(value) === '[object URL]') return value.href;
  const protocol = value.protocol ? (value.protocol.endsWith(':') ? value.protocol : `${value.protocol}:`) : '';
  const host = value.host || (value.hostname ? `${value.hostname}${value.port ? `:${value.port}` : ''}` : '');
  const search = value.search || (value.query && typeof value.query === 'object' && Object.keys(value.query).length
    ? `?${querystring.stringify(value.query)}` : (typeof value.query === 'string' && value.query ? `?${value.query}` : ''));
  const slashes = value.slashes || host || /^(https?|ftp|file):$/.test(protocol) ? '//' : '';
  const auth = value.auth ? `${encodeURIComponent(value.auth).replace(/%3A/i, ':')}@` : '';
  const hash = value.hash ? (value.hash.startsWith('#') ? value.hash : `#${value.hash}`) : '';
  return `${protocol}${slashes}${auth}${host}${value.pathname || ''}${search}${hash}`;
}

function resolve(from, to) {
  return new URL(to, new URL(from, 'resolve://')).href.replace(/^resolve:\/\/\/?/, '');
}

function fileURLToPath(value) {
  const url = typeof value === 'string' ? new URL(value) : value;
  if (url.protocol !== 'file:') throw new TypeError('The URL must be of scheme file');
  return decodeURIComponent(url.pathname);
}

function pathToFileURL(file) {
  return new URL(`file://${encodeURI(String(file))}`);
}

function domainToASCII(domain) {
  try {
    return new URL(`http://${domain}`).hostname;
  } catch {
    return '';
  }
}

module.exports = {
  URL, URLSearchParams, Url: function Url() {}, parse, format, resolve, fileURLToPath, pathToFileURL, domainToASCII,
  domainToUnicode: (domain) => require('punycode/').toUnicode(domainToASCII(domain)),
};
