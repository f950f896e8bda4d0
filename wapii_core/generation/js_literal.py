"""JSON values written as JavaScript source (the oracle's programs of the JavaScript adapters)."""

from __future__ import annotations

import json
import math
import re
from typing import Any

_IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
_STRING_ESCAPES = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def js_string(text: str) -> str:
    """A single-quoted JavaScript string literal."""
    out = []
    for char in text:
        if char in _STRING_ESCAPES:
            out.append(_STRING_ESCAPES[char])
        elif ord(char) < 0x20:
            out.append(f"\\x{ord(char):02x}")
        else:
            out.append(char)
    return "'" + "".join(out) + "'"


def _js_key(key: str) -> str:
    if key == "__proto__":  # a literal `__proto__:` would set the prototype, not a property
        return f"[{js_string(key)}]"
    return key if _IDENTIFIER.match(key) else js_string(key)


def js_literal(value: Any) -> str:
    """A JavaScript expression for a JSON value (objects keep their key order)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value!r} is not a JSON number")
        return json.dumps(value)
    if isinstance(value, str):
        return js_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(js_literal(item) for item in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_js_key(str(k))}: {js_literal(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write a {type(value).__name__} as a JavaScript literal")
