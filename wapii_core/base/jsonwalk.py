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
