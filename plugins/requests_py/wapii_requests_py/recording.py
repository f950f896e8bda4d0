"""A request as the mock received it, written down as JSON (runs inside the sandboxed worker).

The record holds what went on the wire (method, full URL, headers in the order and spelling sent,
body bytes as text or base64) and, beside it, what the program passed to the library: the URL and
the query parameters before the library encoded them (``passed``), so that the normalisation can
keep the typed values the code wrote (``limit=50`` is the number 50, as in the reference's axios
config) while wire mode judges the encoded strings.
"""

from __future__ import annotations

import base64
import math
from typing import Any, Iterable

PASSED_ATTRIBUTE = "_wapii_passed"
"""Where the capture hooks leave ``(url, params)`` on a library's request object."""


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
    for key, value in pairs:
        ok, typed = _typed(value)
        if not isinstance(key, str) or not ok:
            continue
        if key in out:
            previous = out[key] if isinstance(out[key], list) else [out[key]]
            out[key] = previous + (typed if isinstance(typed, list) else [typed])
        else:
            out[key] = typed
    return out


def passed_record(request: Any) -> dict[str, Any]:
    """What the capture hooks saw the program pass for this request (empty when they saw nothing)."""
    passed = getattr(request, PASSED_ATTRIBUTE, None)
    if passed is None:
        return {}
    url, params = passed
    return {"url": str(url) if url is not None else None, "params": typed_params(params)}


def _read_all(body: Any) -> bytes:
    if body is None:
        return b""
    if isinstance(body, str):
        return body.encode("utf-8")
    if isinstance(body, (bytes, bytearray, memoryview)):
        return bytes(body)
    if hasattr(body, "read"):
        data = body.read()
        return data.encode("utf-8") if isinstance(data, str) else bytes(data)
    return b"".join(chunk.encode("utf-8") if isinstance(chunk, str) else bytes(chunk) for chunk in body)


def _text(value: Any) -> str:
    return value.decode("latin-1") if isinstance(value, (bytes, bytearray)) else str(value)


def from_requests(prepared: Any) -> dict[str, Any]:
    """The record of a ``requests.PreparedRequest``."""
    return {
        "library": "requests",
        "method": _text(prepared.method),
        "url": _text(prepared.url),
        "headers": [[_text(name), _text(value)] for name, value in prepared.headers.items()],
        "body": body_record(_read_all(prepared.body)),
        "passed": passed_record(prepared),
    }


def from_httpx(request: Any) -> dict[str, Any]:
    """The record of an ``httpx.Request`` (its body already read)."""
    return {
        "library": "httpx",
        "method": request.method,
        "url": str(request.url),
        "headers": [[name.decode("latin-1"), value.decode("latin-1")] for name, value in request.headers.raw],
        "body": body_record(request.content),
        "passed": passed_record(request),
    }
