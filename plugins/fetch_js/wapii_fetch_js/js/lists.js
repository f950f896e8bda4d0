'use strict';
/**
 * Lists the program cannot reach or steer: null-prototype records of items by index and a
 * `length`. A JavaScript array would not do: `list[list.length] = item` runs a setter the program
 * defined on `Array.prototype[0]`, and `splice`, `sort` or spreading call what it put on
 * `Array.prototype`.
 */

/** An empty list. */
const newList = () => ({ __proto__: null, length: 0 });

/** Appends `item` to `list`. */
function push(list, item) {
  list[list.length] = item;
  list.length += 1;
}

/** Removes the item at index `at` of `list`, in place. */
function removeAt(list, at) {
  for (let i = at; i + 1 < list.length; i++) list[i] = list[i + 1];
  list.length -= 1;
  delete list[list.length];
}

/** A new list of the items of `list` for which `drop(item)` is false. */
function without(list, drop) {
  const kept = newList();
  for (let i = 0; i < list.length; i++) if (!drop(list[i])) push(kept, list[i]);
  return kept;
}

module.exports = { newList, push, removeAt, without };
