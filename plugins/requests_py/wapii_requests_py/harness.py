"""Runs one extracted snippet with every request captured instead of sent (inside a sandboxed worker).

``run_snippet(code)`` is the function the sandbox's Python worker pool calls in a child process.
Requests made with ``requests`` are captured at the transport by ``responses``; requests made with
``httpx`` (module functions, ``Client`` and ``AsyncClient``) by ``respx``. The mock answers nothing:
it records the request and raises :class:`RequestIssued`, which stops the program at its first
request (what the program would do with the response never runs, like the code after the call that
the reference's extraction cut off). A snippet whose code is a coroutine (top-level ``await``,
``async with``) runs under ``asyncio``.

Importing this module (in the worker's pre-loaded parent, before any fork) installs three
process-wide patches that every snippet shares: the hooks that note the URL and query parameters a
program passed (:mod:`.recording`), and one cached SSL context for httpx, which otherwise builds a new
one for every client (~50 ms each). The first :func:`run_snippet` starts the mocks for good
(:class:`_Mocks`): call it only in a process made for running snippets, never in wapii's own.
"""

from __future__ import annotations

import ast
import asyncio
import builtins
import functools
import inspect
import re
import ssl
from typing import Any

import httpx
import requests
import responses
import respx
from httpx._client import BaseClient
from httpx._transports import default as httpx_transports

from .recording import PASSED_ATTRIBUTE, from_httpx, from_requests

COMPILE_FLAGS = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT


class RequestIssued(BaseException):
    """Raised by the mock at the first request: ends the program (``except Exception`` cannot catch it)."""


# ---------------------------------------------------------------- process-wide patches (at import)

def _note_requests_passed(original: Any) -> Any:
    @functools.wraps(original)
    def prepare_url(self: requests.PreparedRequest, url: Any, params: Any) -> None:
        setattr(self, PASSED_ATTRIBUTE, (url, params))
        original(self, url, params)

    return prepare_url


def _note_httpx_passed(original: Any) -> Any:
    @functools.wraps(original)
    def build_request(self: BaseClient, method: str, url: Any, *args: Any, **kwargs: Any) -> httpx.Request:
        request = original(self, method, url, *args, **kwargs)
        setattr(request, PASSED_ATTRIBUTE, (url, kwargs.get("params")))
        return request

    return build_request


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
    if getattr(requests.PreparedRequest.prepare_url, "__wrapped__", None) is None:
        requests.PreparedRequest.prepare_url = _note_requests_passed(requests.PreparedRequest.prepare_url)
    if getattr(BaseClient.build_request, "__wrapped__", None) is None:
        BaseClient.build_request = _note_httpx_passed(BaseClient.build_request)
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
    parent: the patched transport classes are then part of every forked child's baseline, and a
    snippet changes no class (a change would taint the child and cost a fork per snippet). Each
    snippet only swaps the list its requests are appended to.
    """

    def __init__(self) -> None:
        self.captured: list[dict[str, Any]] = []
        self.requests_mock = responses.RequestsMock(assert_all_requests_are_fired=False)
        self.requests_mock.add(_AnyRequest("GET", re.compile(".*"), callback=self._on_requests))
        self.router = respx.mock(assert_all_called=False, assert_all_mocked=True, using="httpx")
        self.router.route().mock(side_effect=self._on_httpx)
        self.requests_mock.start()
        self.router.start()

    def _on_requests(self, prepared: requests.PreparedRequest) -> Any:
        self.captured.append(from_requests(prepared))
        raise RequestIssued

    def _on_httpx(self, request: httpx.Request) -> Any:
        request.read()
        self.captured.append(from_httpx(request))
        raise RequestIssued

    def begin(self) -> list[dict[str, Any]]:
        """A fresh list for the next snippet's requests (the mocks' own call logs are emptied)."""
        self.requests_mock.calls.reset()
        self.router.calls.clear()
        self.captured = []
        return self.captured


_mocks: _Mocks | None = None


def _capture() -> list[dict[str, Any]]:
    global _mocks
    if _mocks is None:
        _mocks = _Mocks()
    return _mocks.begin()


def _execute(code: str) -> None:
    compiled = compile(code, "<snippet>", "exec", flags=COMPILE_FLAGS, dont_inherit=True)
    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}
    if compiled.co_flags & inspect.CO_COROUTINE:
        asyncio.run(eval(compiled, namespace))
    else:
        exec(compiled, namespace)


def run_snippet(code: str) -> dict[str, Any]:
    """Runs ``code`` until its first request; returns ``{"requests": [record, ...]}`` (possibly empty).

    An exception before any request was captured propagates (the pool reports ``runtime_error``);
    ``sys.exit`` before a request becomes a ``RuntimeError``. Once a request is captured, whatever
    the program does next (it may catch the stop and go on) no longer changes the outcome.
    """
    captured = _capture()
    try:
        _execute(code)
    except RequestIssued:
        pass
    except SystemExit as exc:
        if not captured:
            raise RuntimeError(f"the program exited (sys.exit({exc.code!r})) before issuing a request") from None
    except BaseException:
        if not captured:
            raise
    return {"requests": list(captured)}
