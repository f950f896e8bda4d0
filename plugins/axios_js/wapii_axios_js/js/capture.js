'use strict';
/**
 * What the mock adapter's reply logs of a request config (docs: metrics.md §3).
 *
 * The published WAPIIBench mock normalised the config inside its reply handler and logged
 * `JSON.stringify(config)`; JavaScript's semantics decided both the values and the failures:
 * `decodeURIComponent` throws on a malformed escape, `JSON.parse` on a broken body, a body key
 * whose container is already a string cannot be appended to, `JSON.stringify` throws on a BigInt
 * or a cycle. Any such throw rejected the request and so ended the sample as a runtime error; this
 * module throws the same errors at the same points.
 *
 * Unlike the reference, it never runs code the snippet could have written or replaced: the config
 * is read once into the kit's own records (`snapshot.js`), the reference's operations are applied
 * to those records with the intrinsics saved before the snippet ran (`primordials.js`,
 * `json_nodes.js`), and the result is written as JSON by the kit (`json_text.js`). The config
 * itself is left as it was.
 */

const {
  JSONParse, ObjectFreeze, RegExpPrototypeExec, SafeTypeError, StringCtor, StringPrototypeCharCodeAt,
  StringPrototypeEndsWith, StringPrototypeIndexOf, StringPrototypeSlice, StringPrototypeStartsWith, decodeURIComponent,
  isNaN, parseInt,
} = require('wapii-kit/primordials');
const {
  ARRAY, SYMBOL, UNDEFINED,
  arrayNode, getMember, hasMember, inheritance, objectNode, omitted, ownMember, setMember, truthy,
} = require('wapii-kit/json_nodes');
const { jsonText } = require('wapii-kit/json_text');
const {
  FORM_DATA, LOGGED_KEYS, THROWS, isRefusal, readValue, refusal, snapshotConfig,
} = require('wapii-kit/snapshot');

/** Characters of JSON a captured request may take; a bigger one is reported as a runtime error. */
const MAX_REQUEST = 4 * 1024 * 1024;

/** `text.split(separator)` for a one-character string separator. */
function split(text, separator) {
  const parts = { __proto__: null, length: 0 };
  let start = 0;
  for (;;) {
    const end = StringPrototypeIndexOf(text, separator, start);
    parts[parts.length] = StringPrototypeSlice(text, start, end === -1 ? text.length : end);
    parts.length += 1;
    if (end === -1) return parts;
    start = end + 1;
  }
}

/** `text.replaceAll(search, replacement)` for a one-character string `search`. */
function replaceAll(text, search, replacement) {
  const parts = split(text, search);
  let result = parts[0];
  for (let i = 1; i < parts.length; i++) result = `${result}${replacement}${parts[i]}`;
  return result;
}

/** The URL as `decodeURIComponent(config.url)` turned it into a string. */
function urlText(value) {
  if (value === UNDEFINED) return 'undefined';
  if (value === null || typeof value !== 'object') return StringCtor(value);
  if (value === SYMBOL) throw new SafeTypeError('Cannot convert a Symbol value to a string');
  if (value.kind === 'bigint') return value.text;
  throw refusal('the request URL is an object, not a string');
}

/** Splits a percent-decoded URL's query string off into `config.params` (string values). */
function splitQuery(config) {
  const url = decodeURIComponent(urlText(ownMember(config, 'url')));
  const queryStart = StringPrototypeIndexOf(url, '?');
  if (queryStart === -1) {
    setMember(config, 'url', url);
    return;
  }
  setMember(config, 'url', StringPrototypeSlice(url, 0, queryStart));
  if (!hasMember(config, 'params')) setMember(config, 'params', objectNode());
  const params = config.members.params;
  const pairs = split(StringPrototypeSlice(url, queryStart + 1), '&');
  for (let i = 0; i < pairs.length; i++) {
    const pair = pairs[i];
    const eq = StringPrototypeIndexOf(pair, '=');
    if (eq >= 0) {
      setMember(params, StringPrototypeSlice(pair, 0, eq), StringPrototypeSlice(pair, eq + 1));
    } else {
      setMember(params, pair, true); // a bare key counts as a flag
    }
  }
}

/** The maximal runs of characters other than `[` and `]` (the reference's `/([^[\]]+)/g`). */
function segments(key) {
  const found = { __proto__: null, length: 0 };
  let start = -1;
  for (let i = 0; i <= key.length; i++) {
    const code = i === key.length ? 0 : StringPrototypeCharCodeAt(key, i);
    const bracket = i === key.length || code === 91 || code === 93; // '[' or ']'

    if (bracket && start >= 0) {
      found[found.length] = StringPrototypeSlice(key, start, i);
      found.length += 1;
      start = -1;
    } else if (!bracket && start < 0) {
      start = i;
    }
  }
  return found;
}

/** Stores `value` under a bracketed key such as `a[b][0]`; numeric segments create lists. */
function assignNested(target, key, value, inherited) {
  let container = target;
  let pending; // the segment whose container is not yet known
  const found = segments(key);
  for (let i = 0; i < found.length; i++) {
    const segment = found[i];
    if (pending) {
      if (!truthy(getMember(container, pending, inherited))) {
        setMember(container, pending, isNaN(parseInt(segment)) ? objectNode() : arrayNode());
      }
      container = getMember(container, pending, inherited);
    }
    pending = segment;
  }
  setMember(container, StringCtor(pending), value);
}

/** Decodes an `application/x-www-form-urlencoded` body (`+` is a space, `k[]`, `a[b]`). */
function decodeForm(body, inherited) {
  const result = objectNode();
  const pairs = split(decodeURIComponent(replaceAll(body, '+', ' ')), '&');
  for (let i = 0; i < pairs.length; i++) {
    const pair = pairs[i];
    const eq = StringPrototypeIndexOf(pair, '=');
    let key = StringPrototypeSlice(pair, 0, eq); // like the reference: without '=', the key loses its last character
    const value = StringPrototypeSlice(pair, eq + 1);
    if (StringPrototypeEndsWith(key, '[]')) {
      key = StringPrototypeSlice(key, 0, -2);
      const list = getMember(result, key, inherited);
      if (truthy(list)) {
        if (list === null || typeof list !== 'object' || list.kind !== ARRAY) {
          throw new SafeTypeError('result[key].push is not a function');
        }
        setMember(list, StringCtor(list.length), value);
      } else {
        const created = arrayNode();
        setMember(created, '0', value);
        setMember(result, key, created);
      }
    } else if (StringPrototypeEndsWith(key, ']')) {
      assignNested(result, key, value, inherited);
    } else {
      setMember(result, key, value);
    }
  }
  return result;
}

const FIELD_NAME = /name="(.*?)"/;
/** A body JSON.parse just made holds plain objects and lists only. */
const NOTHING_KNOWN = ObjectFreeze({ __proto__: null });

/** The fields of a `form-data` package FormData: its `_streams` hold [header, value, line break] per field. */
function multipartFields(parts) {
  if (parts === UNDEFINED || parts === null) throw new SafeTypeError(`Cannot read properties of ${parts === null ? 'null' : 'undefined'} (reading 'length')`);
  if (typeof parts !== 'object' || parts.kind !== ARRAY) throw refusal('the FormData parts are not a list');
  const result = objectNode();
  for (let i = 0; i < parts.length; i += 3) {
    const header = parts.items[i];
    if (typeof header !== 'string') {
      if (header === undefined || header === UNDEFINED || header === null) {
        throw new SafeTypeError(`Cannot read properties of ${header === null ? 'null' : 'undefined'} (reading 'match')`);
      }
      if (typeof header === 'object' && header.kind !== 'bigint') {
        throw refusal(`a FormData part header that is not a string at data._streams[${i}]`);
      }
      throw new SafeTypeError('parts[i].match is not a function');
    }
    const match = RegExpPrototypeExec(FIELD_NAME, header);
    if (match === null) throw new SafeTypeError("Cannot read properties of null (reading '1')");
    const value = parts.items[i + 1];
    setMember(result, match[1], value === undefined ? UNDEFINED : value);
  }
  return result;
}

/** Decodes the request body the way the reference mock did; unknown kinds stay as they are. */
function decodeBody(config, inherited) {
  const data = ownMember(config, 'data');
  if (!truthy(data) || data === 'null') {
    setMember(config, 'data', objectNode());
  } else if (typeof data === 'string') {
    const body = StringPrototypeStartsWith(data, '{') ? readValue(JSONParse(data), 'data', NOTHING_KNOWN) : decodeForm(data, inherited);
    setMember(config, 'data', body);
  } else if (data.kind === THROWS) {
    throw new SafeTypeError(data.message);
  } else if (data.kind === FORM_DATA) {
    setMember(config, 'data', multipartFields(data.parts));
  }
}

/** Normalises a snapshot of a config received by the mock adapter, in place (metrics.md §3). */
function normalise(config) {
  const inherited = inheritance();
  splitQuery(config);
  if (ownMember(config, 'data') !== UNDEFINED) decodeBody(config, inherited);
}

/**
 * What the reply logs of `config`: `{request}` (the judged keys of the normalised config, as a
 * node) or `{refused}` (why it cannot be read faithfully: it holds a getter or a Proxy in a judged
 * value, is nested too deep, or is too large). Throws where the reference's reply threw.
 * `known`: see snapshot.js.
 */
function captureRequest(config, known) {
  try {
    const snapshot = snapshotConfig(config, known);
    normalise(snapshot);
    jsonText(snapshot); // throws where JSON.stringify(config) threw: a BigInt or a cycle anywhere
    const request = objectNode();
    for (let i = 0; i < LOGGED_KEYS.length; i++) {
      const key = LOGGED_KEYS[i];
      if (hasMember(snapshot, key) && !omitted(snapshot.members[key])) request.members[key] = snapshot.members[key];
    }
    const size = jsonText(request).length;
    if (size > MAX_REQUEST) return { __proto__: null, refused: `the captured request is larger than ${MAX_REQUEST} characters` };
    return { __proto__: null, request };
  } catch (error) {
    if (isRefusal(error)) return { __proto__: null, refused: `bad_capture: ${error.reason}` };
    throw error;
  }
}

module.exports = { captureRequest, MAX_REQUEST };
