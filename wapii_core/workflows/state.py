"""The end state of a program's run against the one the task expects.

Both runs start from the same store (the task's setup on a mock of the same seed, so the objects the
setup made have the same identifiers). Each side's changes are read against that start: objects
created, changed and deleted, per collection. An object the mock creates carries values generated
from its identifier besides what the requests gave it, so a created object is compared by what the
requests gave it (its *given* content: the fields whose values differ from what the mock would have
generated for that identifier, and the objects it was created under); generated identifiers are
matched as objects are paired (in the order the expected run created them), so that a task created
by the program under another identifier, and a comment on it, still match. A changed object is
compared whole, identifiers mapped.

What the expected run did that the program did not is **missing** (the end state does not match);
what the program did that the task did not ask for is **collateral damage**: an object created that
pairs with none expected (created twice, say), an object changed or deleted that the task leaves alone.
An expected object that no created object matches pairs with the program's next created object of its
collection that matches nothing either, if any: the program tried and got it wrong (missing), which
is not damage.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

Generated = Callable[[str, str], dict[str, Any]]
"""``generated(collection, identifier)``: the object the mock makes for that identifier before any
request's fields are laid over it."""


@dataclass
class StateDiff:
    """The end state judged: what is missing, what was damaged, and how identifiers paired."""

    missing: list[str] = field(default_factory=list)
    damage: list[str] = field(default_factory=list)
    ids: dict[str, str] = field(default_factory=dict)  # the program's identifier -> the expected one

    @property
    def matches(self) -> bool:
        return not self.missing


def _objects(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    collections = state.get("collections") if isinstance(state, dict) else None
    return collections if isinstance(collections, dict) else {}


def _links(state: dict[str, Any], collection: str, identifier: str) -> dict[str, str]:
    links = state.get("links") if isinstance(state, dict) else None
    found = links.get(collection, {}).get(identifier) if isinstance(links, dict) else None
    return found if isinstance(found, dict) else {}


def _mapped(value: Any, ids: dict[str, str]) -> Any:
    """``value`` with every string that is a paired identifier of the program's replaced by the expected one."""
    if isinstance(value, str):
        return ids.get(value, value)
    if isinstance(value, dict):
        return {key: _mapped(item, ids) for key, item in value.items()}
    if isinstance(value, list):
        return [_mapped(item, ids) for item in value]
    return value


def _given(obj: dict[str, Any], generated: dict[str, Any], identifier: str) -> dict[str, Any]:
    """The fields of ``obj`` the requests gave it: those whose values differ from the generated ones
    (the identifier itself left out: it is paired, not compared)."""
    return {key: value for key, value in obj.items()
            if value != identifier and (key not in generated or generated[key] != value)}


def _changes(before: dict[str, Any], after: dict[str, Any]) -> tuple[list[tuple[str, str]], list[tuple[str, str]],
                                                                      list[tuple[str, str]]]:
    """(created, changed, deleted) as ``(collection, identifier)`` pairs, in store order."""
    old, new = _objects(before), _objects(after)
    created = [(c, i) for c, objects in new.items() for i in objects if i not in old.get(c, {})]
    changed = [(c, i) for c, objects in new.items() for i, obj in objects.items()
               if i in old.get(c, {}) and (old[c][i] != obj or _links(before, c, i) != _links(after, c, i))]
    deleted = [(c, i) for c, objects in old.items() for i in objects if i not in new.get(c, {})]
    return created, changed, deleted


def _short(value: Any, limit: int = 160) -> str:
    import json

    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def compare_states(before: dict[str, Any], expected: dict[str, Any], actual: dict[str, Any],
                   generated: Generated) -> StateDiff:
    """The program's end state ``actual`` against ``expected``, both reached from ``before`` (see the
    module docstring)."""
    diff = StateDiff()
    want_created, want_changed, want_deleted = _changes(before, expected)
    got_created, got_changed, got_deleted = _changes(before, actual)
    exp_objects, act_objects = _objects(expected), _objects(actual)

    def given(state: dict[str, Any], objects: dict[str, Any], collection: str, identifier: str) -> dict[str, Any]:
        obj = objects[collection][identifier]
        return {"fields": _given(obj, generated(collection, identifier), identifier),
                "under": _links(state, collection, identifier)}

    unpaired = list(got_created)
    unmatched = []
    for collection, identifier in want_created:  # first the objects the program made as expected
        wanted = given(expected, exp_objects, collection, identifier)
        pair = next((p for p in unpaired if p[0] == collection
                     and _mapped(given(actual, act_objects, *p), {**diff.ids, p[1]: identifier}) == wanted), None)
        if pair is None:
            unmatched.append((collection, identifier, wanted))
            continue
        unpaired.remove(pair)
        diff.ids[pair[1]] = identifier
    for collection, identifier, wanted in unmatched:  # then an attempt at each, made otherwise: not damage
        pair = next((p for p in unpaired if p[0] == collection), None)
        where = f" under {_short(wanted['under'])}" if wanted['under'] else ""
        if pair is None:
            diff.missing.append(f"{collection}: no object created with {_short(wanted['fields'])}{where}")
            continue
        unpaired.remove(pair)
        diff.ids[pair[1]] = identifier
        got = _mapped(given(actual, act_objects, *pair), diff.ids)
        fields = sorted({k for k in set(wanted["fields"]) | set(got["fields"])
                         if wanted["fields"].get(k) != got["fields"].get(k)})
        detail = ", ".join(f"{k}: {_short(got['fields'].get(k), 60)} (expected {_short(wanted['fields'].get(k), 60)})"
                           for k in fields[:3])
        if got["under"] != wanted["under"]:
            detail = ", ".join(filter(None, [detail, f"under {_short(got['under'], 60)} (expected "
                                                     f"{_short(wanted['under'], 60)})"]))
        diff.missing.append(f"{collection}/{pair[1]} created otherwise than asked: {detail}")
    for collection, identifier in want_changed:
        want = {"object": exp_objects[collection][identifier], "under": _links(expected, collection, identifier)}
        got_obj = act_objects.get(collection, {}).get(identifier)
        if got_obj is None:
            diff.missing.append(f"{collection}/{identifier}: changed by the task, but deleted")
            continue
        got = _mapped({"object": got_obj, "under": _links(actual, collection, identifier)}, diff.ids)
        if got != want:
            fields = sorted({k for k in set(want["object"]) | set(got["object"])
                             if want["object"].get(k) != got["object"].get(k)})
            detail = ", ".join(f"{k}: {_short(got['object'].get(k), 60)} (expected {_short(want['object'].get(k), 60)})"
                               for k in fields[:3]) or "its links differ"
            diff.missing.append(f"{collection}/{identifier}: {detail}")
    for collection, identifier in want_deleted:
        if identifier in act_objects.get(collection, {}):
            diff.missing.append(f"{collection}/{identifier}: still there (the task deletes it)")
    for collection, identifier in unpaired:
        diff.damage.append(f"{collection}/{identifier} created, which the task does not ask for: "
                           f"{_short(given(actual, act_objects, collection, identifier)['fields'])}")
    wanted_changes = set(want_changed)
    for collection, identifier in got_changed:
        if (collection, identifier) not in wanted_changes:
            diff.damage.append(f"{collection}/{identifier} changed, which the task leaves alone")
    wanted_deletes = set(want_deleted)
    for collection, identifier in got_deleted:
        if (collection, identifier) not in wanted_deletes:
            diff.damage.append(f"{collection}/{identifier} deleted, which the task leaves alone")
    return diff
