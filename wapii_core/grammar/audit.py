"""Checking judged samples against what a constraint promises.

The judge counts an argument ``illegal`` when it is not legal for the *expected* endpoint
(metrics.md §5), so a call that picks another, existing endpoint has "illegal" arguments even when
every one of them belongs to the endpoint it picked. A constraint can only promise the latter:
:func:`own_endpoint_illegal` counts the arguments of a judged request that the endpoint the call
itself used does not allow.
"""

from __future__ import annotations

from wapii_core.base.model import SPECIAL_HEADERS, SampleResult
from wapii_core.openapi.index import SpecIndex

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


def constraint_breaches(result: SampleResult, spec: SpecIndex, argument_setup: bool,
                        starter_fixes_method: bool) -> list[str]:
    """What a judged constrained generation breaks of the grammar's promises (empty: nothing).

    A nonexecutable sample may only be one the grammar cut short (``incomplete_request``) or could
    not start (``unsatisfiable``); an executable one has a legal URL and method and no argument
    illegal for the endpoint it chose (:func:`own_endpoint_illegal`). In the argument setup the
    starter fixes the URL, so the method is one of the path the judge resolves that URL to (its first
    candidate); where the starter fixes the method too (``starter_fixes_method``: every adapter but
    fetch's, whose ``fetch('<url>'`` leaves it to the model) it is the expected one and the judge
    finds no illegal argument either."""
    if result.verdict == "nonexecutable":
        if result.error in ("incomplete_request", "unsatisfiable"):
            return []
        return [f"finished but did not run ({result.error}: {result.error_detail})"]
    breaches = []
    if result.url == "illegal":
        breaches.append("illegal URL")
    if result.method == "illegal":
        breaches.append("illegal method")
    own = own_endpoint_illegal(result, spec)
    if own:
        breaches.append(f"{own} argument(s) illegal for the endpoint the call chose")
    if argument_setup:
        request = result.request or {}
        candidates = spec.candidates(request.get("url", ""))
        if not candidates or not spec.has_method(candidates[0], request.get("method")):
            breaches.append("a method its URL's path does not have")
        if starter_fixes_method and result.method != "correct":
            breaches.append("not the method the starter fixed")
        if result.method == "correct" and "illegal" in {v for f in result.arguments.values() for v in f.values()}:
            breaches.append("an argument the judge finds illegal")
    return breaches
