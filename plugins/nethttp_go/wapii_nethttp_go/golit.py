"""Go literals written from Python values."""

from __future__ import annotations

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def go_string(text: str) -> str:
    """``text`` as a Go interpreted string literal (UTF-8 kept as written, control characters escaped)."""
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\x{ord(char):02x}")
        elif 0xD800 <= ord(char) <= 0xDFFF:
            out.append("\\uFFFD")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'
