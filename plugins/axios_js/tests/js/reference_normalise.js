'use strict';
/**
 * The published WAPIIBench mock's normalisation of a captured request config, operation for
 * operation (the oracle of `capture_differential.js`; until the capture was rebuilt on the kit's
 * own records this was the capture itself). It runs in a fresh context per config, as the reference
 * ran one Node process per sample, and mutates `config` in place.
 */
/** Splits a percent-decoded URL's query string off into `config.params` (string values). */
function splitQuery(config) {
  const url = decodeURIComponent(config.url);
  const queryStart = url.indexOf('?');
  if (queryStart === -1) {
    config.url = url;
    return;
  }
  config.url = url.slice(0, queryStart);
  if (!Object.hasOwn(config, 'params')) {
    config.params = {};
  }
  for (const pair of url.slice(queryStart + 1).split('&')) {
    const eq = pair.indexOf('=');
    if (eq >= 0) {
      config.params[pair.slice(0, eq)] = pair.slice(eq + 1);
    } else {
      config.params[pair] = true; // a bare key counts as a flag
    }
  }
}

/** Stores `value` under a bracketed key such as `a[b][0]`; numeric segments create lists. */
function assignNested(target, key, value) {
  let container = target;
  let pending; // the segment whose container is not yet known
  for (const match of key.matchAll(/([^[\]]+)/g)) {
    const segment = match[1];
    if (pending) {
      if (!container[pending]) {
        container[pending] = isNaN(parseInt(segment)) ? {} : [];
      }
      container = container[pending];
    }
    pending = segment;
  }
  container[pending] = value;
}

/** Decodes an `application/x-www-form-urlencoded` body (`+` is a space, `k[]`, `a[b]`). */
function decodeForm(body) {
  const result = {};
  const decoded = decodeURIComponent(body.replaceAll('+', ' '));
  for (const pair of decoded.split('&')) {
    const eq = pair.indexOf('=');
    let key = pair.slice(0, eq); // like the reference: without '=', the key loses its last character
    const value = pair.slice(eq + 1);
    if (key.endsWith('[]')) {
      key = key.slice(0, -2);
      if (result[key]) {
        result[key].push(value);
      } else {
        result[key] = [value];
      }
    } else if (key.endsWith(']')) {
      assignNested(result, key, value);
    } else {
      result[key] = value;
    }
  }
  return result;
}

/** The fields of a `form-data` package FormData (the multipart body axios builds in Node). */
function multipartFields(formData) {
  const result = {};
  const parts = formData._streams; // [header, value, line break] per appended field
  for (let i = 0; i < parts.length; i += 3) {
    result[parts[i].match(/name="(.*?)"/)[1]] = parts[i + 1];
  }
  return result;
}

/** Decodes the request body the way the reference mock did; unknown kinds stay as they are. */
function decodeBody(config) {
  const data = config.data;
  if (!data || data === 'null') {
    config.data = {};
  } else if (typeof data === 'string' && data.length > 0) {
    config.data = data.startsWith('{') ? JSON.parse(data) : decodeForm(data);
  } else if (typeof data === 'object' && data.constructor.name === 'FormData') {
    config.data = multipartFields(data);
  }
}

/** Normalises a config received by the mock adapter, in place. */
function normaliseCapturedConfig(config) {
  splitQuery(config);
  if (config.data !== undefined) {
    decodeBody(config);
  }
}

module.exports = { normaliseCapturedConfig };
