"""Cutting the first axios call out of a generated program (docs: metrics.md §2).

The rules are the reference pipeline's, character for character: a constrained generation that was
stopped is recognised by the marker its backend appended; otherwise the call starts at the first
``axios.`` and ends at the first cut-off marker *in priority order* (not the earliest one) found
after it, with the marker replaced as listed in :data:`CUT_OFFS`.
"""

from __future__ import annotations

from wapii_core.api import Extraction
from wapii_core.kits.node import TIMEOUT_MARKER, UNSATISFIABLE_MARKER, cut_offs, extract_js_call

__all__ = ["CALL_START", "CUT_OFFS", "TIMEOUT_MARKER", "UNSATISFIABLE_MARKER", "extract_call"]

CALL_START = "axios."
CUT_OFFS = cut_offs(CALL_START)
"""(marker, replacement) in priority order (:func:`wapii_core.kits.node.cut_offs`)."""


def extract_call(code: str) -> Extraction:
    """The first axios call of ``code`` (the full program: starter code + completion), or why none."""
    return extract_js_call(code, CALL_START)
