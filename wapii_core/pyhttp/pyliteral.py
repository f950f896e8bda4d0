"""Python source for JSON values (what rendered programs and starter codes are written with)."""

from __future__ import annotations

import math
from typing import Any


def py_string(text: str) -> str:
    """A Python string literal (single-quoted unless the text holds a quote and no double quote)."""
    return repr(str(text))


def py_literal(value: Any) -> str:
    """A Python expression for a JSON value: ``True``/``False``/``None``, key order kept."""
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value!r} is not a JSON number")
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(py_literal(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{py_string(str(k))}: {py_literal(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot write a {type(value).__name__} as a Python literal")
