"""A request as a library hands it to its transport, and the record the normalisation reads.

Inside the sandboxed snippet process, an adapter's harness takes the :data:`RequestMessage` its library
built (method, full URL, headers in the order and spelling sent, body bytes) for the wire channel.
On the supervisor's side, :func:`wire_record` turns a parsed wire request,
with what the code wrote for its query (:mod:`.source_query`: the URL and the typed ``params=`` values,
read from the source), into the record that :mod:`wapii_core.pyhttp.normalise` reads (``method``, ``url``,
``headers``, ``body`` as text or base64, ``passed``).
"""

from __future__ import annotations

import base64
import math
from typing import Any, Iterable


def body_record(body: bytes | None) -> dict[str, str] | None:
    """``{"text": …}`` for UTF-8 bodies, ``{"base64": …}`` otherwise, None for no or an empty body."""
    if not body:
        return None
    try:
        return {"text": body.decode("utf-8")}
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(body).decode("ascii")}


def _json_scalar(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or isinstance(value, (str, bool, int))


def _typed(value: Any) -> tuple[bool, Any]:
    """(whether it is a JSON value a query can carry, that value): a scalar or a list of scalars."""
    if _json_scalar(value):
        return True, value
    if isinstance(value, (list, tuple)) and all(_json_scalar(item) for item in value):
        return True, list(value)
    return False, None


def _pairs(params: Any) -> Iterable[tuple[Any, Any]] | None:
    if isinstance(params, dict):
        return params.items()
    if isinstance(params, (list, tuple)) and all(isinstance(p, (list, tuple)) and len(p) == 2 for p in params):
        return [(p[0], p[1]) for p in params]
    return None  # a string, bytes or a library object: only the wire form is known


def typed_params(params: Any) -> dict[str, Any] | None:
    """The query parameters as the code passed them, keeping only JSON values (repeated keys → lists)."""
    pairs = _pairs(params)
    if pairs is None:
        return None
    out: dict[str, Any] = {}
    repeated: set[str] = set()  # keys whose list is this function's own, grown in place
    for key, value in pairs:
        ok, typed = _typed(value)
        if not isinstance(key, str) or not ok:
            continue
        if key not in out:
            out[key] = typed
            continue
        if key not in repeated:
            out[key] = list(out[key]) if isinstance(out[key], list) else [out[key]]
            repeated.add(key)
        out[key] += typed if isinstance(typed, list) else [typed]
    return out


RequestMessage = tuple[str, str, list[tuple[str, str]], bytes]
"""What a library hands its transport: method, full URL, headers in order, body bytes."""


def _checked_params(params: Any) -> dict[str, Any] | None:
    if params is None:
        return None
    if not isinstance(params, dict):
        raise ValueError("the typed query parameters are not an object")
    for key, value in params.items():
        ok, _ = _typed(value)
        if not isinstance(key, str) or not ok:
            raise ValueError(f"the typed query parameter {key!r} is not a JSON scalar or list of scalars")
    return params


def checked_passed(passed: Any) -> dict[str, Any]:
    """What the code wrote for a request's query, shape checked: ``{}`` or
    ``{"url": str | None, "params": {name: scalar | [scalar, ...]} | None}``; ValueError otherwise."""
    if passed is None or passed == {}:
        return {}
    if not isinstance(passed, dict) or set(passed) - {"url", "params"}:
        raise ValueError("a request hint is not an object with 'url' and 'params'")
    url = passed.get("url")
    if url is not None and not isinstance(url, str):
        raise ValueError("a request hint's 'url' is not a string")
    return {"url": url, "params": _checked_params(passed.get("params"))}


def wire_record(request: Any, passed: Any) -> dict[str, Any]:
    """The record :mod:`wapii_core.pyhttp.normalise` reads, from a :class:`~wapii_core.sandbox.wire_capture.WireRequest`
    and what the code wrote for its query (:func:`.source_query.written_query`; ValueError when malformed)."""
    return {
        "method": request.method,
        "url": request.target,
        "headers": [[name, value] for name, value in request.headers],
        "body": body_record(request.body),
        "passed": checked_passed(passed),
    }
