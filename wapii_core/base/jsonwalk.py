"""Walking a parsed JSON value without recursion, so that a value of any depth can be measured.

Values that cross from a sandboxed snippet (its answer, a body it sent) are parsed in wapii's own
processes and then compared, written and re-read by code that recurses: one nested near the
interpreter's recursion limit would raise there and end the whole run. :func:`walk` lets such a
value be measured first, whatever its depth.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def walk(value: Any) -> Iterator[tuple[Any, int]]:
    """Every value inside ``value`` (itself first, object keys included) with the number of lists and
    objects around it (0 for ``value`` itself)."""
    pending = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        yield item, depth
        if isinstance(item, dict):
            pending += [(key, depth + 1) for key in item]
            pending += [(child, depth + 1) for child in item.values()]
        elif isinstance(item, (list, tuple)):
            pending += [(child, depth + 1) for child in item]


def deeper_than(value: Any, limit: int) -> bool:
    """Whether something in ``value`` lies inside more than ``limit`` lists and objects."""
    return any(depth > limit for _, depth in walk(value))


def lone_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate (JSON can escape one, UTF-8 cannot carry it)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def unstorable(value: Any, max_depth: int) -> str | None:
    """Why ``value`` cannot be compared and written as UTF-8 JSON by code that recurses (nested more
    than ``max_depth`` levels, or a string with a lone surrogate), or None when it can."""
    for item, depth in walk(value):
        if depth > max_depth:
            return f"is nested more than {max_depth} levels deep"
        if isinstance(item, str) and lone_surrogate(item):
            return "holds a lone surrogate, which UTF-8 cannot carry"
    return None


_END = object()
CYCLE = '"<cycle: refers to a value that encloses it>"'
"""What :func:`bounded_dumps` writes for a value inside itself (a YAML alias to an enclosing node)."""


def bounded_dumps(value: Any, limit: int, indent: int = 2) -> tuple[str, str | None]:
    """``value`` as indented JSON text of at most ``limit`` characters, and a note when it is not all
    there (``None`` when it is).

    A parsed YAML document is a graph: an alias is the same object again, so a few lines can stand for
    a tree of 10**9 nodes (billion laughs), and an alias inside the node it names is a cycle. This
    writes the tree lazily, stopping at ``limit`` characters (the work is bounded by what it writes,
    not by the tree), and writes :data:`CYCLE` for a value that encloses itself, without recursion.
    Values JSON lacks (a date) are written as their ``str``."""
    import json

    out: list[str] = []
    size = 0
    cyclic = False
    active: set[int] = set()
    stack: list[list[Any]] = []  # [items iterator, closer, id, depth, written, is_object]

    def emit(text: str) -> None:
        nonlocal size
        out.append(text)
        size += len(text)

    def start(item: Any, depth: int) -> None:
        nonlocal cyclic
        if isinstance(item, (dict, list, tuple)):
            if id(item) in active:
                cyclic = True
                emit(CYCLE)
            elif not item:
                emit("{}" if isinstance(item, dict) else "[]")
            else:
                is_object = isinstance(item, dict)
                active.add(id(item))
                emit("{" if is_object else "[")
                stack.append([iter(item.items() if is_object else item), "}" if is_object else "]", id(item), depth,
                              0, is_object])
        elif item is None or isinstance(item, (str, int, float, bool)):
            emit(json.dumps(item, ensure_ascii=False))
        else:
            emit(json.dumps(str(item), ensure_ascii=False))

    start(value, 0)
    while stack and size <= limit:
        frame = stack[-1]
        entry = next(frame[0], _END)
        depth = frame[3]
        if entry is _END:
            stack.pop()
            active.discard(frame[2])
            emit("\n" + " " * (indent * depth) + frame[1])
            continue
        emit(("," if frame[4] else "") + "\n" + " " * (indent * (depth + 1)))
        frame[4] += 1
        if frame[5]:
            key, entry = entry
            emit(json.dumps(str(key), ensure_ascii=False) + ": ")
        start(entry, depth + 1)
    text = "".join(out)
    if size > limit or stack:
        return text[:limit], f"cut at {limit} characters" + (" (it refers to itself)" if cyclic else "")
    return text, "it refers to itself: each reference to an enclosing value is shown as a string" if cyclic else None
