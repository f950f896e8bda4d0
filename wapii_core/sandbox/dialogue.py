"""The supervisor's side of a program's exchanges: the requests it sends, answered by its sample's
:class:`~wapii_core.mock.exchange.Responder`, recorded in order.

A worker relays what a job's process writes down its wire channel (:mod:`.wire_capture`) to the
supervisor as it arrives (``{"id", "sent": base64}``, :mod:`.forked`); :meth:`Dialogue.feed` takes
those bytes, cuts each complete HTTP/1.1 request off them (parsed with h11, exactly as the judged
requests are), asks the responder, and returns the answers' bytes for the worker to write to the
job's reply channel (``{"id", "reply": base64}``). The responder never runs in the program's process
or realm: the program only exchanges bytes with it.

An answer to ``HEAD``, and a ``204`` or ``304``, is sent without its body, as a server sends it (the
record keeps what the responder gave); a status outside 200-599 is the responder's failure.

Bounds: :data:`MAX_EXCHANGES` requests per program (one more ends the program, a ``runtime_error``),
an answer's body of at most :data:`~.wire_capture.MAX_RESPONSE_BYTES` (a larger one is sent as a
``500``), and what the record keeps of each message (:func:`record`).
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass, field

from wapii_core.base.model import Exchange, ExchangeMessage
from wapii_core.base.text import exception_line
from wapii_core.mock.exchange import EmptyResponder, MockRequest, MockResponse, Responder
from wapii_core.sandbox.wire_capture import (MAX_RESPONSE_BYTES, MAX_WIRE_BYTES, WireError, WireRequest, _one,
                                             serialise_response)

MAX_EXCHANGES = 64
"""Requests one program may send to its responder; the next one ends it as a ``runtime_error``."""
MAX_HEAD = 64 << 10
"""Bytes of a request's line and headers at most before its blank line."""
RECORDED_BODY = 16 << 10
"""Bytes of each body the record keeps (the size is kept whole)."""
RECORDED_HEADERS = 64
"""Headers of each message the record keeps."""
_LENGTH = re.compile(rb"\r\ncontent-length:[ \t]*([0-9]{1,12})[ \t]*(?=\r\n|$)", re.IGNORECASE)


def answers(responder: Responder | None) -> bool:
    """Whether ``responder`` answers (the program runs to its end): not for None or an
    :class:`~wapii_core.mock.exchange.EmptyResponder`, which keep the first-call benchmark as it is
    (the program stops at its first request, as the published pipeline's did)."""
    return responder is not None and not isinstance(responder, EmptyResponder)


def _body(data: bytes) -> tuple[str | None, str | None]:
    if not data:
        return None, None
    kept = data[:RECORDED_BODY]
    try:
        return kept.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        if len(data) > RECORDED_BODY and exc.start >= RECORDED_BODY - 3:  # a character cut at the end
            return kept[:exc.start].decode("utf-8"), None
        return None, base64.b64encode(kept).decode("ascii")


def message(headers: list[tuple[str, str]] | tuple[tuple[str, str], ...], body: bytes) -> ExchangeMessage:
    """What the record keeps of one message's headers and body."""
    text, raw = _body(body)
    return ExchangeMessage(headers=[[str(n), str(v)] for n, v in list(headers)[:RECORDED_HEADERS]],
                           body=text, body_base64=raw, size=len(body))


def record(request: MockRequest, response: MockResponse) -> Exchange:
    """One exchange as the sample's record holds it (bodies cut at :data:`RECORDED_BODY` bytes)."""
    return Exchange(method=request.method, url=request.url, request=message(request.headers, request.body),
                    status=response.status, response=message(response.headers, response.body),
                    note=response.reason or None)


@dataclass
class Dialogue:
    """One program's exchanges with ``responder``, fed the bytes its worker relays."""

    responder: Responder
    buffer: bytearray = field(default_factory=bytearray)
    received: int = 0
    exchanges: list[Exchange] = field(default_factory=list)
    ended: str | None = None
    """Why the program gets no more answers (then it is ended; its capture is that ``runtime_error``)."""

    def feed(self, data: bytes) -> list[bytes]:
        """The answers to the requests ``data`` completes, in order (none once :attr:`ended`)."""
        if self.ended is not None:
            return []
        self.received += len(data)
        if self.received > MAX_WIRE_BYTES:
            self.ended = f"the program sent more than {MAX_WIRE_BYTES} bytes"
            return []
        self.buffer += data
        replies = []
        while self.ended is None and (request := self._next()) is not None:
            if len(self.exchanges) >= MAX_EXCHANGES:
                self.ended = f"the program sent more than {MAX_EXCHANGES} requests"
                break
            replies.append(self._answer(request))
        return replies

    def _next(self) -> WireRequest | None:
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            if len(self.buffer) > MAX_HEAD:
                self.ended = "the bytes sent are not an HTTP/1.1 request (no end of its headers)"
            return None
        lengths = _LENGTH.findall(bytes(self.buffer[:end]))
        total = end + 4 + (int(lengths[0]) if lengths else 0)
        if len(self.buffer) < total:
            return None
        try:
            request, rest = _one(bytes(self.buffer[:total]))
        except WireError as exc:
            self.ended = str(exc)
            return None
        if rest:
            self.ended = "the bytes sent are not an HTTP/1.1 request (its framing is ambiguous)"
            return None
        del self.buffer[:total]
        return request

    def _answer(self, wire: WireRequest) -> bytes:
        request = MockRequest(wire.method, wire.target, tuple(wire.headers), wire.body)
        try:
            response = self.responder.answer(request)
            if not isinstance(response, MockResponse) or not 200 <= response.status <= 599:
                raise TypeError(f"the answer {response!r:.80} is not a MockResponse with a status of 200-599")
            if len(response.body) > MAX_RESPONSE_BYTES:
                raise ValueError(f"the answer's body has more than {MAX_RESPONSE_BYTES} bytes")
        except Exception as exc:  # noqa: BLE001 - the responder's failure is told, as a server's 500
            response = MockResponse(500, (("Content-Type", "text/plain"),), b"responder failed",
                                    reason=f"the responder failed: {exception_line(exc)}")
        self.exchanges.append(record(request, response))
        bodiless = wire.method == "HEAD" or response.status in (204, 304)  # a server sends no body (RFC 9110)
        return serialise_response(response.status, response.headers, b"" if bodiless else response.body)


def dialogues(responders: list[Responder | None] | None, count: int) -> list[Dialogue | None]:
    """One :class:`Dialogue` per job whose responder :func:`answers`, None for the others."""
    if responders is None:
        return [None] * count
    if len(responders) != count:
        raise ValueError(f"{len(responders)} responders for {count} programs")
    return [Dialogue(responder) if answers(responder) else None for responder in responders]
