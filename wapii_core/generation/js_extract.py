"""Cutting the first call of a JavaScript library out of a generated program (metrics.md §2).

The reference pipeline's rules, character for character, for any library whose calls start with a
fixed text (``axios.``, ``fetch(``): a constrained generation that was stopped is recognised by the
marker its backend appended; otherwise the call starts at the first ``call_start`` and ends at the
first cut-off marker *in priority order* (not the earliest one) found after it, with the marker
replaced as :func:`cut_offs` lists.
"""

from __future__ import annotations

from wapii_core.base.model import Extraction

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


def cut_offs(call_start: str) -> tuple[tuple[str, str | None], ...]:
    """(marker, replacement) in priority order for calls starting with ``call_start``; ``None`` means
    the marker itself followed by a newline. A second call on a new line ends the first."""
    return (
        (".then", ";\n"),
        (".catch", ";\n"),
        (".finally", ";\n"),
        ("});", None),
        ("}\n);", None),
        (");", None),
        (";", None),
        ("\n" + call_start, ""),
        ("```", ""),
    )


def extract_js_call(code: str, call_start: str) -> Extraction:
    """The first call of ``code`` (the full program: starter code + completion) that starts with
    ``call_start``, or why there is none."""
    for suffix, error in STOP_SUFFIXES:
        if code.endswith(suffix):
            return Extraction(error=error)
    start = code.find(call_start)
    if start == -1:
        return Extraction(error="no_request")
    search_from = start + len(call_start)
    for marker, replacement in cut_offs(call_start):
        end = code.find(marker, search_from)
        if end != -1:
            tail = marker + "\n" if replacement is None else replacement
            taken = end + len(marker) if replacement is None else end  # the marker is part of the call
            return Extraction(call=code[start:end] + tail, span=(start, taken))
    return Extraction(error="incomplete_request")
