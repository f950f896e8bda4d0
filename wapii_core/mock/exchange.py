"""One HTTP exchange between a judged program and what answers it.

:class:`MockRequest` is a request as it was sent (method, absolute URL, headers in the order and
spelling sent, the body's bytes); :class:`MockResponse` the answer its library is handed. A
:class:`Responder` turns one into the other; each sample and draw gets a responder of its own, so
nothing a program does reaches another sample's answers. :data:`EMPTY_OK` is the first-call
benchmark's answer to everything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable


@dataclass(frozen=True)
class MockRequest:
    """A request as the program's library sent it."""

    method: str
    url: str
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""


@dataclass(frozen=True)
class MockResponse:
    """An answer: status, headers (in order) and the body's bytes."""

    status: int
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    reason: str = field(default="", compare=False)
    """A short note for the record (``created tasks/1``, ``401: no bearer token``); not sent."""


EMPTY_OK = MockResponse(200)
"""The published pipeline's answer to every request: ``200`` with no body."""


@runtime_checkable
class Responder(Protocol):
    """Answers the requests of one sample's program, in the order they were sent."""

    def answer(self, request: MockRequest) -> MockResponse: ...


class EmptyResponder:
    """The first-call benchmark's responder: :data:`EMPTY_OK` to every request."""

    def answer(self, request: MockRequest) -> MockResponse:  # noqa: ARG002 - the same answer to all
        return EMPTY_OK
