"""The run loop every Python adapter's harness shares, inside a sandboxed snippet process.

An adapter's harness patches its library so that the first request is sent down the wire channel
(:func:`wapii_core.sandbox.wire_capture.send_request`) and raises :class:`RequestIssued`, then calls
:func:`run_until_request` with the snippet and a counter of requests sent. A snippet whose code is
a coroutine (top-level ``await``, ``async with``) runs under ``asyncio``.
"""

from __future__ import annotations

import ast
import asyncio
import builtins
import inspect
from typing import Any, Protocol

from wapii_core.sandbox.wire_capture import answering

COMPILE_FLAGS = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT


class RequestIssued(BaseException):
    """Raised by a harness's capture at the first request: ends the program (``except Exception``
    cannot catch it)."""


class SentCounter(Protocol):
    """What :func:`run_until_request` reads of a harness's capture: how many requests it sent."""

    sent: int


def execute(code: str) -> None:
    """Runs ``code`` as ``__main__`` (under ``asyncio.run`` when it is a coroutine)."""
    compiled = compile(code, "<snippet>", "exec", flags=COMPILE_FLAGS, dont_inherit=True)
    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}
    if compiled.co_flags & inspect.CO_COROUTINE:
        asyncio.run(eval(compiled, namespace))
    else:
        exec(compiled, namespace)


def run_until_request(code: str, capture: SentCounter) -> dict[str, Any]:
    """Runs ``code`` until its first request; returns ``{"sent": n}``, the requests sent down the wire
    channel (what is judged is read from the channel, not from this value).

    An exception before any request was sent propagates (the pool reports ``runtime_error``);
    ``sys.exit`` before a request becomes a ``RuntimeError``. Once a request is sent, whatever the
    program does next (it may catch the stop and go on) no longer changes the outcome.
    """
    if answering():
        return run_to_end(code, capture)
    try:
        execute(code)
    except RequestIssued:
        pass
    except SystemExit as exc:
        if not capture.sent:
            raise RuntimeError(f"the program exited (sys.exit({exc.code!r})) before issuing a request") from None
    except BaseException:
        if not capture.sent:
            raise
    return {"sent": capture.sent}


def run_to_end(code: str, capture: SentCounter) -> dict[str, Any]:
    """Runs ``code`` to its end, its requests answered; returns ``{"sent": n}``. An exception it does
    not catch, or ``sys.exit`` with a failure code, is the program's failure (after its requests too:
    a program that crashes on an answer did not do its job); ``sys.exit(0)`` is a normal end."""
    try:
        execute(code)
    except SystemExit as exc:
        if exc.code not in (None, 0):
            raise RuntimeError(f"the program exited with sys.exit({exc.code!r})") from None
    return {"sent": capture.sent}
