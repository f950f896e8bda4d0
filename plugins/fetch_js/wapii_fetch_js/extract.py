"""Cutting the first ``fetch(...)`` call out of a generated program (the rules of metrics.md §2).

As for axios: a constrained generation that was stopped is recognised by the marker its backend
appended; otherwise the call starts at the first ``fetch(`` and ends at the first cut-off marker
*in priority order* (not the earliest one) found after it, with the marker replaced as listed.
"""

from __future__ import annotations

from wapii_core.api import Extraction

CALL_START = "fetch("

STOP_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("timeout", "timeout"),
    ("unsatisfiable_constraints", "unsatisfiable"),
    ("unsatisfiable", "unsatisfiable"),
)
"""(program suffix, error), checked in this order before anything else."""

CUT_OFFS: tuple[tuple[str, str | None], ...] = (
    (".then", ";\n"),
    (".catch", ";\n"),
    (".finally", ";\n"),
    ("});", None),
    ("}\n);", None),
    (");", None),
    (";", None),
    ("\nfetch(", ""),
    ("```", ""),
)
"""(marker, replacement) in priority order; ``None`` means the marker itself followed by a newline."""


def extract_call(code: str) -> Extraction:
    """The first fetch call of ``code`` (the full program: starter code + completion), or why none."""
    for suffix, error in STOP_SUFFIXES:
        if code.endswith(suffix):
            return Extraction(error=error)
    start = code.find(CALL_START)
    if start == -1:
        return Extraction(error="no_request")
    search_from = start + len(CALL_START)
    for marker, replacement in CUT_OFFS:
        end = code.find(marker, search_from)
        if end != -1:
            tail = marker + "\n" if replacement is None else replacement
            return Extraction(call=code[start:end] + tail)
    return Extraction(error="incomplete_request")
