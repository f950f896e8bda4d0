"""Cutting the first ``fetch(...)`` call out of a generated program (the rules of metrics.md §2).

As for axios: a constrained generation that was stopped is recognised by the marker its backend
appended; otherwise the call starts at the first ``fetch(`` and ends at the first cut-off marker
*in priority order* (not the earliest one) found after it, with the marker replaced as listed.
"""

from __future__ import annotations

from wapii_core.api import TIMEOUT_MARKER, UNSATISFIABLE_MARKER, Extraction, cut_offs, extract_js_call

__all__ = ["CALL_START", "CUT_OFFS", "TIMEOUT_MARKER", "UNSATISFIABLE_MARKER", "extract_call"]

CALL_START = "fetch("
CUT_OFFS = cut_offs(CALL_START)
"""(marker, replacement) in priority order (:func:`wapii_core.api.cut_offs`)."""


def extract_call(code: str) -> Extraction:
    """The first fetch call of ``code`` (the full program: starter code + completion), or why none."""
    return extract_js_call(code, CALL_START)
