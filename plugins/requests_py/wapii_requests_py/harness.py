"""Runs one extracted snippet with every request sent down the sandbox's wire channel (inside a
sandboxed worker).

``run_snippet(code)`` is the function the sandbox's Python worker pool calls in a child process.
Requests made with ``requests`` are taken at the transport by ``responses``; requests made with
``httpx`` (module functions, ``Client`` and ``AsyncClient``) by ``respx``. Each sends the request as
the library handed it to its transport (method, URL, headers, body) down the wire channel
(:func:`wapii_core.kits.python.exchange`), whose bytes the supervisor judges. In the first-call benchmark
nothing answers: it raises :class:`RequestIssued`, which stops the program at its first request
(what the program would do with the response never runs, like the code after the call that the
reference's extraction cut off). When the sample's responder answers, its answer (status, headers,
body, read back from the reply channel) becomes the library's response, as a server's would, and
the program runs on. A snippet whose code is a coroutine (top-level ``await``, ``async with``) runs
under ``asyncio``. Nothing the snippet's process holds is judged: only those bytes.

Importing this module (in the worker's pre-loaded parent, before any fork) installs one
process-wide patch: one cached SSL context for httpx, which otherwise builds a new one for every
client (~50 ms each). The first :func:`run_snippet` starts the mocks for good
(:class:`_Mocks`): call it only in a process made for running snippets, never in wapii's own.
"""

from __future__ import annotations

import functools
import re
import ssl
from typing import Any

import httpx
import requests
import responses
import respx
from httpx._transports import default as httpx_transports

from wapii_core.kits.python import RequestIssued, exchange, run_until_request

from .messages import httpx_message, requests_message


# ---------------------------------------------------------------- process-wide patches (at import)

def _cached_ssl_context(original: Any) -> Any:
    contexts: dict[tuple[Any, ...], ssl.SSLContext] = {}

    @functools.wraps(original)
    def create_ssl_context(verify: Any = True, cert: Any = None, trust_env: bool = True) -> ssl.SSLContext:
        if not isinstance(verify, bool) or cert is not None:
            return original(verify=verify, cert=cert, trust_env=trust_env)
        key = (verify, trust_env)
        if key not in contexts:
            contexts[key] = original(verify=verify, cert=cert, trust_env=trust_env)
        return contexts[key]

    return create_ssl_context


def _install_patches() -> None:
    if getattr(httpx_transports.create_ssl_context, "__wrapped__", None) is None:
        httpx_transports.create_ssl_context = _cached_ssl_context(httpx_transports.create_ssl_context)
        httpx_transports.create_ssl_context()  # build the common context before workers fork


_install_patches()


# ---------------------------------------------------------------- capture

class _AnyRequest(responses.CallbackResponse):
    """A ``responses`` registration that matches every method and URL."""

    def matches(self, request: Any) -> tuple[bool, str]:
        return True, ""


class _Mocks:
    """Both libraries' mocks, started once per process and never stopped.

    Started by the first snippet, which in a sandboxed worker is a warm-up run in the pre-loaded
    parent, so that every snippet's forked process starts with the transports already patched.
    Each snippet only swaps the list its request hints are appended to.
    """

    def __init__(self) -> None:
        self.sent = 0
        self.requests_mock = responses.RequestsMock(assert_all_requests_are_fired=False)
        self.requests_mock.add(_AnyRequest("GET", re.compile(".*"), callback=self._on_requests, content_type=None))
        self.router = respx.mock(assert_all_called=False, assert_all_mocked=True, using="httpx")
        self.router.route().mock(side_effect=self._on_httpx)
        self.requests_mock.start()
        self.router.start()

    def _on_requests(self, prepared: requests.PreparedRequest) -> Any:
        answer = exchange(*requests_message(prepared))
        self.sent += 1
        if answer is None:
            raise RequestIssued
        return answer.status, answer.headers, answer.body

    def _on_httpx(self, request: httpx.Request) -> Any:
        request.read()
        answer = exchange(*httpx_message(request))
        self.sent += 1
        if answer is None:
            raise RequestIssued
        return httpx.Response(answer.status, headers=answer.headers, content=answer.body)

    def begin(self) -> _Mocks:
        """Ready for the next snippet (the mocks' call logs emptied, no request sent yet)."""
        self.requests_mock.calls.reset()
        self.router.calls.clear()
        self.sent = 0
        return self


_mocks: _Mocks | None = None


def _capture() -> _Mocks:
    global _mocks
    if _mocks is None:
        _mocks = _Mocks()
    return _mocks.begin()


def run_snippet(code: str) -> dict[str, Any]:
    """Runs ``code`` until its first request (:func:`wapii_core.kits.python.run_until_request`); returns
    ``{"sent": n}``. Call it only in a process made for running snippets: it starts the mocks for good."""
    return run_until_request(code, _capture())
