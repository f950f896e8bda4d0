"""What differs between the Python HTTP libraries: every per-library rule in one place.

A :class:`Library` names the module a program imports, the words the prompt uses for it, the
calls that issue a request, and which headers of a captured request are the library's own (sent
whatever the code asked for) rather than the code's. The default header values are read from the
installed library itself, so a new version's ``User-Agent`` is recognised without a change here.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable

REQUEST_METHODS = ("get", "post", "put", "patch", "delete", "head", "options")
"""HTTP methods that both libraries offer as module-level functions (``requests.get``, ``httpx.get``)."""

BODYLESS_METHODS = ("get", "head", "options", "delete")
"""Methods whose httpx shorthand takes no body argument (``httpx.request`` is used for a body)."""

COMPUTED_HEADERS = ("content-length", "transfer-encoding", "host")
"""Headers a library derives from the URL or the body; never the code's own choice."""


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


@dataclass(frozen=True)
class Library:
    """One Python HTTP library as a benchmark target."""

    adapter: str  # the wapii adapter's name
    module: str  # what the program imports and calls: ``requests.get(...)``
    title: str  # the library's name in prose
    bodyless_shorthands: tuple[str, ...]  # shorthand functions that cannot carry a body
    _defaults: Callable[[], dict[str, str]]
    _query_text: Callable[[Any], str | None]

    @property
    def import_line(self) -> str:
        return f"import {self.module}\n"

    @property
    def syntax(self) -> str:
        """How the prompt describes the call."""
        return f"{self.module}.<method>(url, params=..., headers=..., json=... / data=... / files=...)"

    def default_headers(self) -> dict[str, str]:
        """Lower-case name → value of the headers the library sends on its own."""
        return _lowered(self._defaults)

    def sends_as(self, value: Any, sent: Any) -> bool:
        """Whether the library writes the query value ``value`` (a scalar or a list, as passed in
        ``params=``) as ``sent`` (a string, or a list of strings for a repeated key)."""
        written = [self._query_text(item) for item in (value if isinstance(value, list) else [value])]
        return [text for text in written if text is not None] == (sent if isinstance(sent, list) else [sent])

    def is_own_header(self, name: str, value: str) -> bool:
        """Whether a sent header is the library's rather than the code's: derived from the URL or the
        body, or one of its defaults with the default value (a code that sets ``User-Agent`` to its
        own value keeps it)."""
        lowered = name.lower()
        if lowered in COMPUTED_HEADERS:
            return True
        return _lowered_map(self._defaults).get(lowered) == value


@functools.lru_cache(maxsize=None)
def _lowered_cached(source: Callable[[], dict[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple((name.lower(), value) for name, value in source().items())


def _lowered(source: Callable[[], dict[str, str]]) -> dict[str, str]:
    return dict(_lowered_cached(source))


@functools.lru_cache(maxsize=None)
def _lowered_map(source: Callable[[], dict[str, str]]) -> Mapping[str, str]:
    """The same, built once: :meth:`Library.is_own_header` runs for every header of every request."""
    return MappingProxyType(dict(_lowered_cached(source)))


REQUESTS = Library("requests_py", "requests", "requests", (), _requests_defaults, _requests_query_text)
HTTPX = Library("httpx_py", "httpx", "HTTPX", BODYLESS_METHODS, _httpx_defaults, _httpx_query_text)

LIBRARIES = {lib.adapter: lib for lib in (REQUESTS, HTTPX)}
