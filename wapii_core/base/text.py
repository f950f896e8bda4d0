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


_KEPT_IN_LINES = {"\n", "\t"}
_INVISIBLE = [chr(c) for c in (*range(0x20), *range(0x7f, 0xa0))]
"""C0 controls, DEL and C1 controls: what a terminal interprets (ESC starts CSI/OSC sequences, 0x9b is CSI)."""
_REORDERING = [chr(c) for c in (0x061c, 0x200e, 0x200f, *range(0x202a, 0x202f), *range(0x2066, 0x206a), 0x2028, 0x2029)]
"""Bidirectional overrides and line separators: they reorder or break what the terminal shows."""
_TABLE = {ord(c): f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}" for c in (*_INVISIBLE, *_REORDERING)}
_TABLE_LINES = {code: shown for code, shown in _TABLE.items() if chr(code) not in _KEPT_IN_LINES}


def visible(text: object, *, lines: bool = False, markup: bool = False) -> str:
    """``str(text)`` safe to put on a terminal: the one way to show text that a program, a model, a
    dataset, a spec or a run file chose.

    Every C0 and C1 control character and DEL is shown as its escape (``ESC`` as ``\\x1b``, CSI as
    ``\\x9b``), never interpreted by the terminal, and so are the bidirectional overrides (``\\u202e``);
    with ``lines``, newlines and tabs are kept (a program, a prompt), else they are shown too (a line
    that must stay one line: a verdict, an error message). With ``markup``, the result is also escaped
    for Rich markup (for text a Rich ``print`` parses; a ``rich.text.Text`` is never parsed)."""
    shown = str(text).translate(_TABLE_LINES if lines else _TABLE)
    if markup:
        from rich.markup import escape

        shown = escape(shown)
    return shown
