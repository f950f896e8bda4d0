"""What differs between requests and httpx: every per-library rule in one place.

Each is a :class:`wapii_core.kits.python.PythonLibrary`: the module a program imports, the words the prompt
uses for it, which shorthands take a body, how it writes a query value, and its default headers,
read from the installed library itself (a new version's ``User-Agent`` is recognised without a
change here).
"""

from __future__ import annotations

from typing import Any

from wapii_core.kits.python import PythonLibrary

BODYLESS_METHODS = ("get", "head", "options", "delete")
"""Methods whose httpx shorthand takes no body argument (``httpx.request`` is used for a body)."""


def _requests_defaults() -> dict[str, str]:
    import requests.utils

    return dict(requests.utils.default_headers())


def _httpx_defaults() -> dict[str, str]:
    from httpx._client import BaseClient  # the default headers of every httpx client, without a transport

    return {name: value for name, value in BaseClient().headers.items()}


def _requests_query_text(value: Any) -> str | None:
    """How requests writes one query value (``str()``; ``None`` leaves the key out)."""
    return None if value is None else str(value)


def _httpx_query_text(value: Any) -> str | None:
    """How httpx writes one query value (``true``/``false`` for booleans, ``None`` as empty)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


REQUESTS = PythonLibrary("requests_py", "requests", "requests", (), _requests_defaults, _requests_query_text,
                         none_headers=True)
HTTPX = PythonLibrary("httpx_py", "httpx", "HTTPX", BODYLESS_METHODS, _httpx_defaults, _httpx_query_text)

LIBRARIES = {lib.adapter: lib for lib in (REQUESTS, HTTPX)}
