"""Cutting the first ``fetch(...)`` call out of a generated program (the rules of metrics.md §2).

As for axios: a constrained generation that was stopped is recognised by the marker its backend
appended; otherwise the call starts at the first ``fetch(`` that calls the global function (not a
method named ``fetch``, as ``User.where(...).fetch()`` in real code before the call) and ends at the first cut-off marker
*in priority order* (not the earliest one) found after it, with the marker replaced as listed.
"""

from __future__ import annotations

import re

from wapii_core.api import Extraction
from wapii_core.kits.node import TIMEOUT_MARKER, UNSATISFIABLE_MARKER, cut_offs, extract_js_call

__all__ = ["CALL_START", "CUT_OFFS", "TIMEOUT_MARKER", "UNSATISFIABLE_MARKER", "extract_call"]

CALL_START = "fetch("
CUT_OFFS = cut_offs(CALL_START)
"""(marker, replacement) in priority order (:func:`wapii_core.kits.node.cut_offs`)."""
_METHOD_FETCH = re.compile(r"[.\w$]fetch\(")
"""``fetch(`` as the name of a method or the end of a longer name: not a call of the global ``fetch``."""


def extract_call(code: str) -> Extraction:
    """The first fetch call of ``code`` (the full program: starter code + completion), or why none."""
    skipped = 0
    while (found := _METHOD_FETCH.search(code, skipped)) is not None and code.find(CALL_START, skipped) == found.start() + 1:
        skipped = found.end()
    if skipped == 0:
        return extract_js_call(code, CALL_START)
    extraction = extract_js_call(code[skipped:], CALL_START)
    if extraction.span is None:
        return extraction
    return extraction.model_copy(update={"span": (extraction.span[0] + skipped, extraction.span[1] + skipped)})
