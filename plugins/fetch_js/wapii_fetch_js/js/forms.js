'use strict';
/**
 * `URLSearchParams` and `FormData` for one run's context, as Node's own: each keeps its entry list
 * (name and value strings, converted as WebIDL `USVString`s when they are added) where only this
 * module can reach it, built and read with intrinsics saved before the program ran
 * (`wapii-kit/primordials` and the bindings below), never through a method, iterator or prototype
 * the program can replace. `entriesOf(value)` hands the hook (`hook.js`) that list as plain data;
 * the bytes a body of either class is sent as are written from it in the worker (`finish.js`), out
 * of the program's reach. What the program sees (`toString()`, iteration, `get`, ...) follows the
 * WHATWG URL and XMLHttpRequest standards, as Node does.
 *
 * A `URLSearchParams` that is not this module's (from `require('url')` or a URL's `searchParams`:
 * the realm's whatwg-url) is read as the list its implementation holds, own data properties only,
 * no Proxy (`wapii-kit/proxies`) among them: no code of the program runs while it is read.
 */

const {
  ArrayIsArray, ObjectHasOwn, ReflectApply, ReflectGetOwnPropertyDescriptor, ReflectGetPrototypeOf, ReflectOwnKeys, SafeTypeError, SafeWeakMap,
  StringCtor, StringPrototypeCharCodeAt, WeakMapPrototypeGet, WeakMapPrototypeSet, uncurryThis,
} = require('wapii-kit/primordials');
const { isProxy } = require('wapii-kit/proxies');
const { newList, push, without } = require('./lists');

const StringFromCharCode = String.fromCharCode;
const SymbolIterator = Symbol.iterator;
const SymbolToStringTag = Symbol.toStringTag;
const SymbolDescription = uncurryThis(ReflectGetOwnPropertyDescriptor(Symbol.prototype, 'description').get);
const HEX = '0123456789ABCDEF';

const entry = (name, value) => ({ __proto__: null, name, value });

function inherits(value, prototype) {
  for (let p = ReflectGetPrototypeOf(value); p !== null; p = ReflectGetPrototypeOf(p)) if (p === prototype) return true;
  return false;
}

/** WebIDL `USVString`: the value as a string, lone surrogates replaced by U+FFFD. */
function usv(value) {
  const text = StringCtor(value);
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = StringPrototypeCharCodeAt(text, i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length
      && (StringPrototypeCharCodeAt(text, i + 1) & 0xfc00) === 0xdc00) {
      out += StringFromCharCode(code, StringPrototypeCharCodeAt(text, i + 1));
      i++;
    } else {
      out += StringFromCharCode(code >= 0xd800 && code <= 0xdfff ? 0xfffd : code);
    }
  }
  return out;
}

/** The UTF-8 bytes of a USVString, as a list of numbers. */
function utf8Bytes(text) {
  const bytes = newList();
  for (let i = 0; i < text.length; i++) {
    let code = StringPrototypeCharCodeAt(text, i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      code = 0x10000 + ((code - 0xd800) << 10) + (StringPrototypeCharCodeAt(text, i + 1) - 0xdc00);
      i++;
    }
    if (code < 0x80) push(bytes, code);
    else if (code < 0x800) {
      push(bytes, 0xc0 | (code >> 6)); push(bytes, 0x80 | (code & 63));
    } else if (code < 0x10000) {
      push(bytes, 0xe0 | (code >> 12)); push(bytes, 0x80 | ((code >> 6) & 63)); push(bytes, 0x80 | (code & 63));
    } else {
      push(bytes, 0xf0 | (code >> 18)); push(bytes, 0x80 | ((code >> 12) & 63));
      push(bytes, 0x80 | ((code >> 6) & 63)); push(bytes, 0x80 | (code & 63));
    }
  }
  return bytes;
}

const codePoint = (code) => (code < 0x10000 ? StringFromCharCode(code)
  : StringFromCharCode(0xd800 + ((code - 0x10000) >> 10), 0xdc00 + ((code - 0x10000) & 0x3ff)));

/** UTF-8 decode without BOM handling, errors as U+FFFD (the Encoding standard's decoder). */
function utf8Decode(bytes) {
  let out = '';
  let needed = 0;
  let seen = 0;
  let code = 0;
  let lower = 0x80;
  let upper = 0xbf;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (needed === 0) {
      if (byte <= 0x7f) out += StringFromCharCode(byte);
      else if (byte >= 0xc2 && byte <= 0xdf) { needed = 1; code = byte & 0x1f; }
      else if (byte >= 0xe0 && byte <= 0xef) {
        if (byte === 0xe0) lower = 0xa0;
        if (byte === 0xed) upper = 0x9f;
        needed = 2; code = byte & 0xf;
      } else if (byte >= 0xf0 && byte <= 0xf4) {
        if (byte === 0xf0) lower = 0x90;
        if (byte === 0xf4) upper = 0x8f;
        needed = 3; code = byte & 0x7;
      } else out += '\ufffd';
      continue;
    }
    if (byte < lower || byte > upper) {
      needed = 0; seen = 0; code = 0; lower = 0x80; upper = 0xbf;
      out += '\ufffd';
      i--; // the byte starts afresh
      continue;
    }
    lower = 0x80; upper = 0xbf;
    code = (code << 6) | (byte & 0x3f);
    seen++;
    if (seen === needed) {
      out += codePoint(code);
      needed = 0; seen = 0; code = 0;
    }
  }
  return needed !== 0 ? `${out}\ufffd` : out;
}

const hexValue = (code) => (code >= 48 && code <= 57 ? code - 48 : code >= 65 && code <= 70 ? code - 55
  : code >= 97 && code <= 102 ? code - 87 : -1);

/** One name or value of an application/x-www-form-urlencoded string: `+` as space, percent-decoded, UTF-8. */
function decodeForm(text) {
  const bytes = utf8Bytes(text);
  const out = newList();
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === 43) push(out, 32);
    else if (byte === 37 && i + 2 < bytes.length && hexValue(bytes[i + 1]) >= 0 && hexValue(bytes[i + 2]) >= 0) {
      push(out, hexValue(bytes[i + 1]) * 16 + hexValue(bytes[i + 2]));
      i += 2;
    } else push(out, byte);
  }
  return utf8Decode(out);
}

/** The entries of an application/x-www-form-urlencoded string. */
function parseForm(text) {
  const list = newList();
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && StringPrototypeCharCodeAt(text, i) !== 38) continue;
    if (i > start) {
      let equals = start;
      while (equals < i && StringPrototypeCharCodeAt(text, equals) !== 61) equals++;
      let name = '';
      let value = '';
      for (let j = start; j < equals; j++) name += StringFromCharCode(StringPrototypeCharCodeAt(text, j));
      for (let j = equals + 1; j < i; j++) value += StringFromCharCode(StringPrototypeCharCodeAt(text, j));
      push(list, entry(decodeForm(name), decodeForm(value)));
    }
    start = i + 1;
  }
  return list;
}

/** A name or value as the application/x-www-form-urlencoded serializer writes it. */
function encodeForm(text) {
  const bytes = utf8Bytes(text);
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === 32) out += '+';
    else if ((byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
      || byte === 42 || byte === 45 || byte === 46 || byte === 95) out += StringFromCharCode(byte);
    else out += `%${StringFromCharCode(StringPrototypeCharCodeAt(HEX, byte >> 4), StringPrototypeCharCodeAt(HEX, byte & 15))}`;
  }
  return out;
}

/**
 * The classes of one run. `hint(key, value)` is told every value a `URLSearchParams` was built
 * from by a list of pairs or a record, with the text its own `toString()` gave, at each
 * serialisation (the hook keeps the typed ones of a text the request's URL holds, see `hook.js`);
 * `foreignPrototype()` gives the prototype of the realm's own (whatwg-url) URLSearchParams.
 */
function createForms({ hint, foreignPrototype }) {
  const searchLists = new SafeWeakMap(); // URLSearchParams -> {list}
  const formLists = new SafeWeakMap(); // FormData -> {list}

  const stateOf = (lists, self, what) => {
    const state = self !== null && typeof self === 'object' ? WeakMapPrototypeGet(lists, self) : undefined;
    if (state === undefined) throw new SafeTypeError(`Value of "this" must be of type ${what}`);
    return state;
  };
  const searchState = (self) => stateOf(searchLists, self, 'URLSearchParams');
  const formState = (self) => stateOf(formLists, self, 'FormData');

  function find(list, name) {
    for (let i = 0; i < list.length; i++) if (list[i].name === name) return i;
    return -1;
  }

  /** `list` with `name` set to `value`: the first entry of that name replaced, the others removed. */
  function setEntry(list, name, value) {
    const at = find(list, name);
    if (at === -1) {
      push(list, entry(name, value));
      return list;
    }
    const kept = newList();
    for (let i = 0; i < list.length; i++) {
      if (i === at) push(kept, entry(name, value));
      else if (list[i].name !== name) push(kept, list[i]);
    }
    return kept;
  }

  function* iterate(state, kind) {
    for (let i = 0; i < state.list.length; i++) {
      const { name, value } = state.list[i];
      yield kind === 'keys' ? name : kind === 'values' ? value : [name, value];
    }
  }

  function getAll(list, name) {
    const values = [];
    for (let i = 0; i < list.length; i++) if (list[i].name === name) ReflectApply(values.push, values, [list[i].value]);
    return values;
  }

  class URLSearchParams {
    constructor(init = undefined) {
      let list = newList();
      const typed = newList(); // [key, value] pairs, told to `hint` when this is serialised
      if (init !== null && (typeof init === 'object' || typeof init === 'function')) {
        const own = WeakMapPrototypeGet(searchLists, init);
        const method = init[SymbolIterator];
        if (own !== undefined && method === URLSearchParams.prototype[SymbolIterator]) {
          for (let i = 0; i < own.list.length; i++) push(list, own.list[i]);
          for (let i = 0; i < own.typed.length; i++) push(typed, own.typed[i]);
        } else if (method !== undefined && method !== null) {
          if (typeof method !== 'function') throw new SafeTypeError('Query pairs must be iterable');
          for (const pair of init) {
            if (pair === null || (typeof pair !== 'object' && typeof pair !== 'function') || typeof pair[SymbolIterator] !== 'function') {
              throw new SafeTypeError('Each query pair must be an iterable [name, value] tuple');
            }
            const items = newList();
            for (const item of pair) push(items, item);
            if (items.length !== 2) throw new SafeTypeError('Each query pair must be an iterable [name, value] tuple');
            if (ArrayIsArray(pair)) push(typed, [items[0], items[1]]);
            push(list, entry(usv(items[0]), usv(items[1])));
          }
        } else {
          const keys = ReflectOwnKeys(init);
          for (let i = 0; i < keys.length; i++) {
            const slot = typeof keys[i] === 'string' ? ReflectGetOwnPropertyDescriptor(init, keys[i]) : undefined;
            if (slot === undefined || !slot.enumerable) continue;
            const value = init[keys[i]];
            if (ObjectHasOwn(slot, 'value')) push(typed, [keys[i], slot.value]);
            list = setEntry(list, usv(keys[i]), usv(value));
          }
        }
      } else if (init !== undefined) {
        const text = usv(init);
        let start = 0;
        if (text.length > 0 && StringPrototypeCharCodeAt(text, 0) === 63) start = 1;
        let rest = '';
        for (let i = start; i < text.length; i++) rest += StringFromCharCode(StringPrototypeCharCodeAt(text, i));
        list = parseForm(rest);
      }
      WeakMapPrototypeSet(searchLists, this, { __proto__: null, list, typed });
    }

    get size() {
      return searchState(this).list.length;
    }

    append(name, value) {
      push(searchState(this).list, entry(usv(name), usv(value)));
    }

    delete(name, value = undefined) {
      const state = searchState(this);
      const key = usv(name);
      const match = value === undefined ? undefined : usv(value);
      state.list = without(state.list, (item) => item.name === key && (match === undefined || item.value === match));
    }

    get(name) {
      const list = searchState(this).list;
      const at = find(list, usv(name));
      return at === -1 ? null : list[at].value;
    }

    getAll(name) {
      return getAll(searchState(this).list, usv(name));
    }

    has(name, value = undefined) {
      const list = searchState(this).list;
      const key = usv(name);
      const match = value === undefined ? undefined : usv(value);
      for (let i = 0; i < list.length; i++) if (list[i].name === key && (match === undefined || list[i].value === match)) return true;
      return false;
    }

    set(name, value) {
      const state = searchState(this);
      state.list = setEntry(state.list, usv(name), usv(value));
    }

    /** Sorts the entries by name, in code units, keeping the order of entries of one name. */
    sort() {
      const { list } = searchState(this);
      for (let i = 1; i < list.length; i++) {
        const item = list[i];
        let j = i - 1;
        while (j >= 0 && list[j].name > item.name) {
          list[j + 1] = list[j];
          j--;
        }
        list[j + 1] = item;
      }
    }

    forEach(callback, thisArg = undefined) {
      if (typeof callback !== 'function') throw new SafeTypeError('The "callback" argument must be of type function');
      const state = searchState(this);
      for (let i = 0; i < state.list.length; i++) ReflectApply(callback, thisArg, [state.list[i].value, state.list[i].name, this]);
    }

    entries() {
      return iterate(searchState(this), 'entries');
    }

    keys() {
      return iterate(searchState(this), 'keys');
    }

    values() {
      return iterate(searchState(this), 'values');
    }

    [SymbolIterator]() {
      return iterate(searchState(this), 'entries');
    }

    /** The application/x-www-form-urlencoded serialisation. */
    toString() {
      const { list, typed } = searchState(this);
      let out = '';
      for (let i = 0; i < list.length; i++) out += `${i > 0 ? '&' : ''}${encodeForm(list[i].name)}=${encodeForm(list[i].value)}`;
      hint(out, typed);
      return out;
    }

    get [SymbolToStringTag]() {
      return 'URLSearchParams';
    }
  }

  class FormData {
    constructor(form = undefined) {
      if (form !== undefined) throw new SafeTypeError('FormData constructor: Argument 1 could not be converted to: undefined.');
      WeakMapPrototypeSet(formLists, this, { __proto__: null, list: newList() });
    }

    append(name, value, filename = undefined) {
      const state = formState(this);
      if (arguments.length === 3) throw new SafeTypeError("Failed to execute 'append' on 'FormData': parameter 2 is not of type 'Blob'");
      push(state.list, entry(usv(name), usv(value)));
    }

    delete(name) {
      const state = formState(this);
      const key = usv(name);
      state.list = without(state.list, (item) => item.name === key);
    }

    get(name) {
      const list = formState(this).list;
      const at = find(list, usv(name));
      return at === -1 ? null : list[at].value;
    }

    getAll(name) {
      return getAll(formState(this).list, usv(name));
    }

    has(name) {
      return find(formState(this).list, usv(name)) !== -1;
    }

    set(name, value, filename = undefined) {
      const state = formState(this);
      if (arguments.length === 3) throw new SafeTypeError("Failed to execute 'set' on 'FormData': parameter 2 is not of type 'Blob'");
      state.list = setEntry(state.list, usv(name), usv(value));
    }

    forEach(callback, thisArg = undefined) {
      if (typeof callback !== 'function') throw new SafeTypeError("Failed to execute 'forEach' on 'FormData': parameter 1 is not of type 'Function'.");
      const state = formState(this);
      for (let i = 0; i < state.list.length; i++) ReflectApply(callback, thisArg, [state.list[i].value, state.list[i].name, this]);
    }

    entries() {
      return iterate(formState(this), 'entries');
    }

    keys() {
      return iterate(formState(this), 'keys');
    }

    values() {
      return iterate(formState(this), 'values');
    }

    [SymbolIterator]() {
      return iterate(formState(this), 'entries');
    }

    get [SymbolToStringTag]() {
      return 'FormData';
    }
  }

  /** The entries of the realm's whatwg-url URLSearchParams, read as data; undefined where they are not plain data. */
  function foreignEntries(value) {
    const keys = ReflectOwnKeys(value);
    for (let k = 0; k < keys.length; k++) {
      if (typeof keys[k] !== 'symbol' || SymbolDescription(keys[k]) !== 'impl') continue;
      const impl = ReflectGetOwnPropertyDescriptor(value, keys[k]);
      const target = impl !== undefined && ObjectHasOwn(impl, 'value') ? impl.value : null;
      const slot = target !== null && typeof target === 'object' && !isProxy(target)
        ? ReflectGetOwnPropertyDescriptor(target, '_list') : undefined;
      if (slot === undefined || !ObjectHasOwn(slot, 'value') || !ArrayIsArray(slot.value) || isProxy(slot.value)) return undefined;
      const list = newList();
      const length = ReflectGetOwnPropertyDescriptor(slot.value, 'length').value;
      for (let i = 0; i < length; i++) {
        const pair = ReflectGetOwnPropertyDescriptor(slot.value, StringCtor(i));
        if (pair === undefined || !ObjectHasOwn(pair, 'value') || !ArrayIsArray(pair.value) || isProxy(pair.value)) return undefined;
        const name = ReflectGetOwnPropertyDescriptor(pair.value, '0');
        const text = ReflectGetOwnPropertyDescriptor(pair.value, '1');
        if (name === undefined || text === undefined || typeof name.value !== 'string' || typeof text.value !== 'string') return undefined;
        push(list, entry(name.value, text.value));
      }
      return list;
    }
    return undefined;
  }

  /**
   * What a body is, read as plain data: `{kind: 'form', list}` for a URLSearchParams, `{kind:
   * 'multipart', list}` for a FormData (`list` of `{name, value}`), `{kind: 'unreadable'}` for a
   * foreign URLSearchParams whose entries are not plain data, or undefined for any other value.
   */
  function entriesOf(value) {
    if (value === null || typeof value !== 'object') return undefined;
    const search = WeakMapPrototypeGet(searchLists, value);
    if (search !== undefined) return { __proto__: null, kind: 'form', list: search.list };
    const form = WeakMapPrototypeGet(formLists, value);
    if (form !== undefined) return { __proto__: null, kind: 'multipart', list: form.list };
    if (!isProxy(value) && inherits(value, foreignPrototype())) {
      const list = foreignEntries(value);
      return list === undefined ? { __proto__: null, kind: 'unreadable' } : { __proto__: null, kind: 'form', list };
    }
    return undefined;
  }

  return { URLSearchParams, FormData, entriesOf };
}

module.exports = { createForms };
