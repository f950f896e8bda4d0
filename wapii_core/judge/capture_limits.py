"""What a captured request may hold to be judged: the bound that keeps one program from making a run slow.

A program chooses what it sends, and the sandbox lets it send a few megabytes (the wire channel takes
4 MiB, a Node worker's answer about as much). Judging that in wapii's own process (decoding the body,
walking it, comparing every argument, validating it against the spec, writing it to the results)
takes seconds per megabyte and per hundred thousand keys, outside any time limit. So a request is
judged only within :data:`MAX_JUDGED_REQUEST_BYTES` and :data:`MAX_JUDGED_VALUES`; a larger one is
the sample's ``runtime_error`` (``bad_capture: ...``) and nothing of it is stored. Both bounds are
far above what an API call needs: WAPIIBench's largest expected request is under 1 KB and holds 43
values.
"""

from __future__ import annotations

import json
from typing import Any

from wapii_core.base.jsonwalk import walk

MAX_JUDGED_REQUEST_BYTES = 256 << 10
"""Bytes the captured request (as the adapter recorded it, body, URL and headers together, written as
compact JSON) may hold to be judged."""
MAX_JUDGED_VALUES = 4096
"""Values the normalised request may hold to be judged, counted as
:func:`~wapii_core.base.jsonwalk.walk` yields them: every object, list, object key and scalar
(headers, query parameters and body fields alike)."""


def captured_size(captured: Any) -> int:
    """The bytes of ``captured`` written as compact UTF-8 JSON (a string of bytes, such as a body
    recorded as latin-1 text, counts one per character; a lone surrogate counts as its three bytes)."""
    text = json.dumps(captured, ensure_ascii=False, separators=(",", ":"), default=str)
    return len(text.encode("utf-8", "surrogatepass"))


def _walked_size(captured: Any, bound: int) -> int:
    """A lower bound of :func:`captured_size` for a value ``json`` cannot write (nested past its
    recursion limit), counted until it passes ``bound``: each string's characters and each other
    value as one byte."""
    size = 0
    for item, _ in walk(captured):
        size += len(item) if isinstance(item, str) else 1
        if size > bound:
            break
    return size


def oversized(captured: Any) -> str | None:
    """Why the raw capture is too large to be judged (``is larger than ...``, said of the captured
    request), or None. Meant for the capture before the adapter decodes it: measuring costs
    milliseconds, judging what it measures could cost seconds."""
    try:
        size, measured = captured_size(captured), ""
    except (TypeError, ValueError, RecursionError):
        size, measured = _walked_size(captured, MAX_JUDGED_REQUEST_BYTES), "at least "
    if size > MAX_JUDGED_REQUEST_BYTES:
        return f"is larger than the {MAX_JUDGED_REQUEST_BYTES} bytes judged ({measured}{size} bytes)"
    return None


def too_many_values(request: Any) -> str | None:
    """Why the normalised request holds too many values to be judged (``holds more than ...``), or
    None; counting stops at the bound (a request decoded from a small body can hold a great many keys)."""
    for count, _ in enumerate(walk(request), start=1):
        if count > MAX_JUDGED_VALUES:
            return f"holds more than the {MAX_JUDGED_VALUES} values judged"
    return None
