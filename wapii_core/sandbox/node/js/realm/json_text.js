'use strict';
/**
 * JSON text of the kit's records (`json_nodes.js`), built by the kit alone: strings are escaped by
 * the saved `JSON.stringify` applied to string primitives (which looks nothing up), structure is
 * written here. What `JSON.stringify` does with such a value is reproduced: members whose value is
 * undefined, a function or a symbol are left out, list elements that are become `null`, a
 * non-finite number is `null`, a BigInt or a cycle throws the same TypeError.
 */

const { JSONStringify, ReflectOwnKeys, SafeTypeError } = require('./primordials');
const {
  ARRAY, BIGINT, CONVERTED, CYCLE, OBJECT, omitted,
} = require('./json_nodes');

function write(value) {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string': case 'number': return JSONStringify(value);
    case 'boolean': return value ? 'true' : 'false';
    default:
  }
  switch (value.kind) {
    case OBJECT: {
      const { members } = value;
      const keys = ReflectOwnKeys(members);
      let text = '{';
      for (let i = 0; i < keys.length; i++) {
        const member = members[keys[i]];
        if (omitted(member)) continue;
        const item = write(member);
        text = `${text}${text.length > 1 ? ',' : ''}${JSONStringify(keys[i])}:${item}`;
      }
      return `${text}}`;
    }
    case ARRAY: {
      const { items, length } = value;
      let text = '[';
      for (let i = 0; i < length; i++) {
        const item = items[i];
        text = `${text}${i > 0 ? ',' : ''}${item === undefined || omitted(item) ? 'null' : write(item)}`;
      }
      return `${text}]`;
    }
    case CONVERTED: return write(value.value);
    case BIGINT: throw new SafeTypeError('Do not know how to serialize a BigInt');
    default:
  }
  if (value === CYCLE) throw new SafeTypeError('Converting circular structure to JSON');
  throw new SafeTypeError(`the capture holds a value of kind ${value.kind}`);
}

/**
 * The JSON text of a node, or undefined for a value JSON leaves out (undefined, a function, a
 * symbol); throws where `JSON.stringify` would have thrown.
 */
function jsonText(value) {
  return omitted(value) ? undefined : write(value);
}

module.exports = { jsonText };
