"""Cutting the first axios call out of a generated program (docs: metrics.md §2).

The rules are the reference pipeline's, character for character: a constrained generation that was
stopped is recognised by the marker its backend appended; otherwise the call starts at the first
``axios.`` and ends at the first cut-off marker *in priority order* (not the earliest one) found
after it, with the marker replaced as listed in :data:`CUT_OFFS`.
"""

from __future__ import annotations

from wapii_core.api import Extraction

CALL_START = "axios."

TIMEOUT_MARKER = "//timeout"
"""What a constrained backend appends to a program whose generation hit its time limit."""
UNSATISFIABLE_MARKER = "//unsatisfiable_constraints"
"""What a constrained backend appends to a program whose constraints became unsatisfiable."""

STOP_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("timeout", "timeout"),
    ("unsatisfiable_constraints", "unsatisfiable"),
    ("unsatisfiable", "unsatisfiable"),
)
"""(program suffix, error), checked in this order before anything else. The reference recognised
a program *ending with* ``timeout`` or ``unsatisfiable_constraints``; the short ``unsatisfiable`` is
accepted as well for backends that use the error's own name."""

CUT_OFFS: tuple[tuple[str, str | None], ...] = (
    (".then", ";\n"),
    (".catch", ";\n"),
    (".finally", ";\n"),
    ("});", None),
    ("}\n);", None),
    (");", None),
    (";", None),
    ("\naxios.", ""),
    ("```", ""),
)
"""(marker, replacement) in priority order; ``None`` means the marker itself followed by a newline."""


def extract_call(code: str) -> Extraction:
    """The first axios call of ``code`` (the full program: starter code + completion), or why none."""
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
