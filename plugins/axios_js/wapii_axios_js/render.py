"""Writing a program that issues a given request config (the ``oracle`` backend's source).

The program is the starter code of the setup followed by one axios call whose captured and
normalised request equals the config. Two axios behaviours need care: it always sends its default
``Accept`` header and, for post/put/patch or a body, a ``Content-Type``; a config without them is
rendered with that header set to ``false``, which axios keeps out of the request. A body-carrying
method without a body passes ``undefined`` as data (``null`` would be sent as the body ``null``).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from wapii_core.api import Sample, Setup

from .prompt import starter_code

BODYLESS_METHODS = ("get", "delete", "head", "options")
"""Shorthands with the signature ``axios.<method>(url[, config])``."""
BODY_METHODS = ("post", "put", "patch")
"""Shorthands with the signature ``axios.<method>(url[, data[, config]])``."""

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


def _headers(config: dict[str, Any], method: str) -> dict[str, Any]:
    """The headers to pass: the config's own, and ``false`` for axios defaults the config lacks."""
    headers = dict(config.get("headers") or {})
    present = {name.lower() for name in headers}
    if "accept" not in present:
        headers["Accept"] = False
    if "content-type" not in present and (method in BODY_METHODS or config.get("data") is not None):
        headers["Content-Type"] = False
    return headers


def call_arguments(config: dict[str, Any]) -> list[str]:
    """The call's arguments after the URL, as JavaScript source, for ``axios.<method>(url, ...)``."""
    method = config["method"].lower()
    options: dict[str, Any] = {"headers": _headers(config, method)}
    if config.get("params") is not None:
        options["params"] = config["params"]
    if method in BODY_METHODS:
        data = js_literal(config["data"]) if config.get("data") is not None else "undefined"
        return [data, js_literal(options)]
    if config.get("data") is not None:
        options["data"] = config["data"]
    return [js_literal(options)]


def render_call(config: dict[str, Any]) -> str:
    """The call without the leading ``axios.``: ``get('…', { … })``, or ``request({ … })`` for other methods."""
    method = config["method"].lower()
    if method in BODYLESS_METHODS or method in BODY_METHODS:
        return f"{method}(" + ", ".join([js_string(config["url"]), *call_arguments(config)]) + ")"
    options = {"url": config["url"], "method": method, "headers": _headers(config, method)}
    for key in ("params", "data"):
        if config.get(key) is not None:
            options[key] = config[key]
    return f"request({js_literal(options)})"


def render_program(config: dict[str, Any], setup: Setup, sample: Sample) -> str:
    """A full program (starter code of ``setup`` + completion) that issues exactly ``config``."""
    starter = starter_code(sample, setup)
    if setup is Setup.argument:
        fixed = (sample.config["method"], sample.config["url"])
        if (config["method"], config["url"]) != fixed:
            raise ValueError(f"the argument setup fixes method and URL to {fixed}; cannot render {config['method']} {config['url']}")
        if config["method"].lower() not in BODYLESS_METHODS + BODY_METHODS:
            raise ValueError(f"axios has no shorthand for method {config['method']!r}")
        return starter + " " + ", ".join(call_arguments(config)) + ");\n"
    call = render_call(config) + ";\n"
    if setup is Setup.full:
        return starter + call
    return starter + "\naxios." + call
