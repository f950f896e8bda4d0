"""Parsed YAML documents as JSON text and back, exactly (what the spec caches store).

YAML gives values JSON has no type for: dates and timestamps (``2020-01-02``), binary
(``!!binary``), sets and ordered pairs, and mapping keys that are not strings (``200:`` is the
integer 200). :func:`dumps` writes such a value as a tagged object, ``{"\\u0000tag": kind, ...}``
(a mapping that itself holds that key is written as a tagged mapping, so nothing is ambiguous),
and :func:`loads` turns it back, so that ``loads(dumps(x)) == x`` with the same types. Plain JSON
documents need no tags and load with the C parser alone.

Reading never runs code: the text is JSON, and a tag only selects one of the constructors below.
"""

from __future__ import annotations

import base64
import datetime as _dt
import json
from typing import Any

from wapii_core.base import fastjson

TAG = "\u0000tag"


class Unencodable(ValueError):
    """A value with no exact JSON form here (a recursive structure, an unknown type, too many nodes)."""


def dumps(value: Any, max_nodes: int = 20_000_000, tree: bool = False, string_keys: bool = False) -> tuple[str, bool]:
    """``(text, tagged)``: the JSON text of ``value`` and whether it holds tags (``loads`` needs to know).

    Raises :class:`Unencodable` for a recursive structure, a type YAML's safe loader never
    builds, or more than ``max_nodes`` values (anchors can make a small file a huge document).
    ``tree=True`` (the caller knows no object is reachable twice, so the text is no larger than
    the value's source) tries JSON's C encoder first and keeps its text when it reads back equal
    to ``value``: JSON keeps ``int``, ``float``, ``bool`` and ``None`` apart, so equality is only
    lost where a type is (a non-string key, a tuple, a NaN), and then the tagged walk below runs.
    ``string_keys=True`` as well (the caller also knows that every mapping key is a string and that
    it holds no tuple) keeps the C encoder's text without reading it back: nothing else loses its
    type there (a NaN reads back as a NaN), and a value JSON has no type for is refused by it.
    """
    if tree:
        try:
            text = json.dumps(value, separators=(",", ":"), default=_no_default)
            if string_keys or fastjson.loads(text) == value:
                return text, False
        except (TypeError, ValueError):
            pass
    state = {"nodes": 0, "tagged": False}
    active: set[int] = set()

    def tagged(kind: str, **fields: Any) -> dict[str, Any]:
        state["tagged"] = True
        return {TAG: kind, **fields}

    def encode(node: Any) -> Any:
        state["nodes"] += 1
        if state["nodes"] > max_nodes:
            raise Unencodable(f"more than {max_nodes} values")
        kind = type(node)
        if kind is str or kind is int or kind is float or kind is bool or node is None:
            return node
        if kind is list or kind is dict or kind is tuple or kind is set or kind is frozenset:
            if id(node) in active:
                raise Unencodable("a recursive structure")
            active.add(id(node))
            try:
                if kind is list:
                    return [encode(item) for item in node]
                if kind is dict:
                    if TAG not in node and all(type(key) is str for key in node):
                        return {key: encode(item) for key, item in node.items()}
                    return tagged("map", items=[[encode(key), encode(item)] for key, item in node.items()])
                return tagged(kind.__name__, items=[encode(item) for item in node])
            finally:
                active.discard(id(node))
        if kind is _dt.datetime:
            return tagged("datetime", value=node.isoformat())
        if kind is _dt.date:
            return tagged("date", value=node.isoformat())
        if kind is bytes:
            return tagged("bytes", value=base64.b64encode(node).decode("ascii"))
        raise Unencodable(f"a value of type {kind.__name__}")

    data = encode(value)
    return json.dumps(data, separators=(",", ":")), state["tagged"]  # ASCII: lone surrogates survive


def _no_default(value: Any) -> Any:
    raise TypeError(f"no plain JSON form for {type(value).__name__}")


def loads(text: str | bytes, tagged: bool) -> Any:
    """The value :func:`dumps` wrote (``tagged``: its second result); raises ``ValueError`` on bad text."""
    return json.loads(text, object_hook=_untag) if tagged else fastjson.loads(text)


_CONSTRUCTORS = {
    "datetime": lambda obj: _dt.datetime.fromisoformat(obj["value"]),
    "date": lambda obj: _dt.date.fromisoformat(obj["value"]),
    "bytes": lambda obj: base64.b64decode(obj["value"], validate=True),
    "map": lambda obj: {_hashable(key): item for key, item in obj["items"]},
    "tuple": lambda obj: tuple(obj["items"]),
    "set": lambda obj: set(map(_hashable, obj["items"])),
    "frozenset": lambda obj: frozenset(map(_hashable, obj["items"])),
}


def _untag(obj: dict[str, Any]) -> Any:
    kind = obj.get(TAG)
    if kind is None:
        return obj
    construct = _CONSTRUCTORS.get(kind) if isinstance(kind, str) else None
    if construct is None:
        raise ValueError(f"unknown tag {kind!r}")
    try:
        return construct(obj)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"malformed {kind} tag") from exc


def _hashable(key: Any) -> Any:
    if isinstance(key, list):  # a tuple key nested in a tuple key decodes its inner parts as lists
        raise ValueError("an unhashable key")
    return key
