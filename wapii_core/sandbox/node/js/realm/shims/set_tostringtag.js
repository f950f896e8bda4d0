'use strict';
/**
 * The es-set-tostringtag package (form-data's), without the get-intrinsic machinery it loads:
 * the same behaviour for the same arguments, at a fraction of the cost per context.
 */

module.exports = function setToStringTag(object, value, options) {
  const overrideIfSet = arguments.length > 2 && !!options && options.force;
  const nonConfigurable = arguments.length > 2 && !!options && options.nonConfigurable;
  if ((typeof overrideIfSet !== 'undefined' && typeof overrideIfSet !== 'boolean')
    || (typeof nonConfigurable !== 'undefined' && typeof nonConfigurable !== 'boolean')) {
    throw new TypeError('if provided, the `overrideIfSet` and `nonConfigurable` options must be booleans');
  }
  if (overrideIfSet || !Object.hasOwn(object, Symbol.toStringTag)) {
    Object.defineProperty(object, Symbol.toStringTag, { configurable: !nonConfigurable, enumerable: false, value, writable: false });
  }
};
