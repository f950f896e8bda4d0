"""Shortening text for error messages and stored details: the one way to cut text to a length.

A cut keeps the first characters and ends in ``...``. ``textwrap.shorten`` is not used: it cuts at
word boundaries and drops a word longer than the width whole (a 600-character URL or path becomes
``[...]``), where a detail should keep what it can of it.
"""

from __future__ import annotations

MAX_DETAIL = 500
"""Characters of a detail (an exception message a program chose, a problem found) a run stores."""
ELLIPSIS = "..."


def shortened(text: str, limit: int = MAX_DETAIL) -> str:
    """``text`` cut to ``limit`` characters, ending in ``...`` when cut."""
    return text if len(text) <= limit else text[:max(limit - len(ELLIPSIS), 0)] + ELLIPSIS


def one_line(text: object, limit: int | None = None) -> str:
    """``str(text)`` on one line (each run of whitespace one space), :func:`shortened` to ``limit`` when given."""
    line = " ".join(str(text).split())
    return line if limit is None else shortened(line, limit)


def shortened_line(text: object, limit: int = MAX_DETAIL) -> str:
    """:func:`one_line`, always cut to ``limit`` characters (default :data:`MAX_DETAIL`)."""
    return one_line(text, limit)


def exception_line(exc: BaseException, limit: int = 200) -> str:
    """``TypeError: message`` on one line, cut to ``limit`` characters (for error details in run files)."""
    return one_line(f"{type(exc).__name__}: {exc}", limit)
