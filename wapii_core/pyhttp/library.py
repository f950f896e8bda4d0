"""What differs between Python HTTP libraries, as one record per library: :class:`PythonLibrary`.

A :class:`PythonLibrary` names the module a program imports, the words the prompt uses for it, the
calls that issue a request, how it writes a query value, how reference mode reads a query value
the code wrote, and which headers of a captured request are the library's own (sent whatever the
code asked for) rather than the code's. Adapters define their libraries with it; the default header
values are read from the installed library (a callable), so a new version's ``User-Agent`` is
recognised without a change.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable

PYTHON_REQUEST_METHODS = ("get", "post", "put", "patch", "delete", "head", "options")
"""HTTP methods that the libraries offer as functions or methods (``requests.get``, ``session.get``)."""

COMPUTED_HEADERS = ("content-length", "transfer-encoding", "host")
"""Headers a library derives from the URL or the body; never the code's own choice."""


def _as_written(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class PythonLibrary:
    """One Python HTTP library as a benchmark target.

    ``query_text(value)`` is how the library writes one query value passed in ``params=`` (None: the
    key is left out, or the library refuses the value); ``written_value(value)`` is the value that
    reference mode judges for a typed query value the code wrote (the value itself, unless the
    library has no way to write that type and a string stands for it); ``caller`` is the name the
    prompt's calls are made on (``requests`` in ``requests.get(…)``, ``session`` in
    ``session.get(…)``); ``request_in_header``: requests are made in an ``async with`` / ``with``
    header, so a program that ends right after the request call's closing parenthesis (a constrained
    completion) still issues it (:mod:`.extract`); ``body_syntax``: the body arguments the prompt names;
    ``none_headers``: ``headers={'Accept': None}`` leaves the library's own header out (requests merges
    a call's headers over its session's and drops ``None``; httpx refuses a ``None`` value), so
    constrained decoding may offer it.
    """

    adapter: str  # the wapii adapter's name
    module: str  # what the program imports
    title: str  # the library's name in prose
    bodyless_shorthands: tuple[str, ...]  # shorthand functions that cannot carry a body
    defaults: Callable[[], dict[str, str]]
    query_text: Callable[[Any], str | None]
    caller: str = ""
    written_value: Callable[[Any], Any] = _as_written
    request_in_header: bool = False
    body_syntax: str = "json=... / data=... / files=..."
    none_headers: bool = False

    @property
    def import_line(self) -> str:
        return f"import {self.module}\n"

    @property
    def call_name(self) -> str:
        """What the calls are made on: :attr:`caller`, else the module."""
        return self.caller or self.module

    @property
    def syntax(self) -> str:
        """How the prompt describes the call."""
        return f"{self.call_name}.<method>(url, params=..., headers=..., {self.body_syntax})"

    def default_headers(self) -> dict[str, str]:
        """Lower-case name → value of the headers the library sends on its own."""
        return dict(_lowered_cached(self.defaults))

    def sends_as(self, value: Any, sent: Any) -> bool:
        """Whether the library writes the query value ``value`` (a scalar or a list, as passed in
        ``params=``) as ``sent`` (a string, or a list of strings for a repeated key)."""
        written = [self.query_text(item) for item in (value if isinstance(value, list) else [value])]
        return [text for text in written if text is not None] == (sent if isinstance(sent, list) else [sent])

    def is_own_header(self, name: str, value: str) -> bool:
        """Whether a sent header is the library's rather than the code's: derived from the URL or the
        body, or one of its defaults with the default value (a code that sets ``User-Agent`` to its
        own value keeps it)."""
        lowered = name.lower()
        if lowered in COMPUTED_HEADERS:
            return True
        return _lowered_map(self.defaults).get(lowered) == value


@functools.lru_cache(maxsize=None)
def _lowered_cached(source: Callable[[], dict[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple((name.lower(), value) for name, value in source().items())


@functools.lru_cache(maxsize=None)
def _lowered_map(source: Callable[[], dict[str, str]]) -> Mapping[str, str]:
    """Built once: :meth:`PythonLibrary.is_own_header` runs for every header of every request."""
    return MappingProxyType(dict(_lowered_cached(source)))
