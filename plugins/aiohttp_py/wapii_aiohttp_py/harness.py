"""Runs one extracted snippet with aiohttp's requests sent down the sandbox's wire channel (inside a
sandboxed worker).

The capture sits at aiohttp's connector: :meth:`aiohttp.BaseConnector.connect` hands every request
a connection to an in-memory transport instead of a socket, and :meth:`aiohttp.ClientRequest.send`
writes the request there as it would to a server (request line, headers in the order and spelling
aiohttp writes them, its automatic ones included, the body as its payload serialises, chunked or
compressed as the call asked). Those bytes are read back into method, headers and body
(:func:`parse_sent`), put with the request's absolute URL, and sent down the wire channel
(:func:`wapii_core.kits.python.exchange`), whose bytes the supervisor judges; then, in the first-call
benchmark, :class:`wapii_core.kits.python.RequestIssued` ends the program at its first request. When the
sample's responder answers, its answer is written back into the connection as a server's HTTP/1.1
response (:func:`wapii_core.kits.python.serialise_response`), which aiohttp's own parser reads into the
response the program gets, and the program runs on. No socket is opened and no name is resolved.

Importing this module (in the worker's pre-loaded parent, before any fork) installs both patches
once, process-wide; run :func:`run_snippet` only in a process made for running snippets.
"""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
from aiohttp import client_reqrep, connector
from aiohttp.client_proto import ResponseHandler

from wapii_core.kits.python import RequestIssued, exchange, run_until_request, serialise_response


class _WireTransport(asyncio.Transport):
    """A transport that keeps what is written to it."""

    def __init__(self) -> None:
        super().__init__()
        self.data = bytearray()
        self._closing = False
        self.protocol: Any = None

    def write(self, data: Any) -> None:
        self.data += data

    def writelines(self, list_of_data: Any) -> None:
        for data in list_of_data:
            self.write(data)

    def is_closing(self) -> bool:
        return self._closing

    def close(self) -> None:
        if not self._closing and self.protocol is not None:  # a socket's close: the protocol learns it
            try:
                asyncio.get_running_loop().call_soon(self.protocol.connection_lost, None)
            except RuntimeError:  # closed outside the loop (collected): nobody waits for it
                pass
        self._closing = True

    def abort(self) -> None:
        self.close()

    def can_write_eof(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return 0

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def is_reading(self) -> bool:
        return False


def _dechunked(body: bytes) -> bytes:
    """A ``Transfer-Encoding: chunked`` body's content (what aiohttp writes for a body of unknown size)."""
    out = bytearray()
    while body:
        size_line, _, body = body.partition(b"\r\n")
        size = int(size_line.split(b";", 1)[0].strip() or b"0", 16)
        if size == 0:
            break
        out += body[:size]
        body = body[size + 2:]
    return bytes(out)


def parse_sent(data: bytes) -> tuple[str, str, list[tuple[bytes, bytes]], bytes]:
    """(method, request target, headers, body) of one HTTP/1.1 request as aiohttp wrote it."""
    head, _, body = data.partition(b"\r\n\r\n")
    request_line, *lines = head.split(b"\r\n")
    method, target, _ = request_line.decode("latin-1").split(" ", 2)
    headers = []
    for line in lines:
        name, _, value = line.partition(b":")
        headers.append((name, value.strip(b" \t")))
    if any(name.lower() == b"transfer-encoding" and b"chunked" in value.lower() for name, value in headers):
        body = _dechunked(body)
    return method, target, headers, body


class _Capture:
    """How many requests the current snippet has sent (reset for each snippet)."""

    sent = 0


_capture = _Capture()


async def _connect(self: connector.BaseConnector, req: client_reqrep.ClientRequest, traces: Any,
                   timeout: Any) -> connector.Connection:
    loop = asyncio.get_running_loop()
    protocol = ResponseHandler(loop)
    transport = _WireTransport()
    transport.protocol = protocol
    protocol.connection_made(transport)
    return connector.Connection(self, req.connection_key, protocol, loop)


_original_send = client_reqrep.ClientRequest.send


async def _send(self: client_reqrep.ClientRequest, conn: connector.Connection) -> Any:
    protocol = conn.protocol
    transport = protocol.transport if protocol is not None else None
    if not isinstance(transport, _WireTransport):
        return await _original_send(self, conn)
    start = len(transport.data)  # a kept-alive connection holds the earlier requests' bytes
    response = await _original_send(self, conn)
    writing = self._writer
    if writing is not None:
        await writing  # the body, written by aiohttp's own task
    method, target, headers, body = parse_sent(bytes(transport.data[start:]))
    url = target if not target.startswith("/") else str(self.url.origin()) + target
    answer = exchange(method, url, headers, body)
    _capture.sent += 1
    if answer is None:
        raise RequestIssued
    assert protocol is not None
    protocol.data_received(serialise_response(answer.status, answer.headers, answer.body))
    return response


def _install_patches() -> None:
    if connector.BaseConnector.connect is not _connect:
        connector.BaseConnector.connect = _connect  # type: ignore[method-assign]
        client_reqrep.ClientRequest.send = _send  # type: ignore[method-assign]


_install_patches()


def run_snippet(code: str) -> dict[str, Any]:
    """Runs ``code`` until its first request (:func:`wapii_core.kits.python.run_until_request`); returns
    ``{"sent": n}`` (what is judged is read from the wire channel, not from this value)."""
    _capture.sent = 0
    return run_until_request(code, _capture)


__all__ = ["aiohttp", "parse_sent", "run_snippet"]
