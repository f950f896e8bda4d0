"""Checking judged samples against what a constraint promises.

The judge counts an argument ``illegal`` when it is not legal for the *expected* endpoint
(metrics.md §5), so a call that picks another, existing endpoint has "illegal" arguments even when
every one of them belongs to the endpoint it picked. A constraint can only promise the latter:
:func:`own_endpoint_illegal` counts the arguments of a judged request that the endpoint the call
itself used does not allow.
"""

from __future__ import annotations

from wapii_core.base.model import SPECIAL_HEADERS, SampleResult
from wapii_core.spec.index import SpecIndex

_FIELDS = ("headers", "params", "data")


def own_endpoint_illegal(result: SampleResult, spec: SpecIndex, strict: bool = False) -> int:
    """How many arguments of ``result``'s request are not legal for its own URL's first candidate
    path and its own method (0 for a sample without a request or whose URL matches no path)."""
    request = result.request or {}
    found = spec.candidates(request.get("url", ""), strict) if request else []
    if not found:
        return 0
    count = 0
    for field in _FIELDS:
        values = request.get(field)
        for name in values if isinstance(values, dict) else ():
            if field == "headers" and name in SPECIAL_HEADERS:
                continue
            count += not spec.is_legal(name, field, request.get("method"), found[0])
    return count
