"""JSON text parsed exactly as ``json.loads`` parses it, faster when it is large (a spec, a cached document).

pydantic-core (which pydantic, a dependency of wapii, is built on) ships jiter, a JSON parser in
Rust that builds the same Python objects as ``json.loads`` in about half the time: the same
types (``int`` of any size, ``float`` correctly rounded, ``NaN`` and ``Infinity``), key order, the
last of duplicated keys. Where it refuses text that ``json.loads`` reads (a byte-order mark, a
lone surrogate, UTF-16, nesting past its depth limit) the text goes to ``json.loads``, and so
does every text shorter than :data:`LARGE` (not worth importing pydantic-core for): results and
errors are always ``json.loads``'s. ``tests/test_documents.py`` holds the two to the same objects.
"""

from __future__ import annotations

import json
from typing import Any

LARGE = 1 << 20
"""Texts of this many characters or bytes and more are tried with jiter first."""


def loads(text: str | bytes) -> Any:
    """``json.loads(text)`` (see the module docstring)."""
    if len(text) >= LARGE:
        try:
            from pydantic_core import from_json
        except ImportError:  # pragma: no cover - pydantic-core comes with pydantic
            pass
        else:
            try:
                return from_json(text)
            except ValueError:
                pass
    return json.loads(text)
