"""The recorder: what a sandboxed JVM's HTTP library talks to, outside the JVM's process.

The JVM is told (system properties) to send every request through an HTTP proxy on a loopback port
of the sandbox's network namespace; nothing else is reachable there. The recorder answers ``CONNECT``
with ``200``; inside the tunnel the library speaks TLS through wapii's pass-through provider
(``java/wapii/PlainTls.java``, the JVM's first security provider), so the tunnel carries the HTTP/1.1
the library wrote, unencrypted. A plain ``http://`` request arrives in absolute form. The recorder
reads each request as a server would (h11), and turns it into the HTTP/1.1 message of the wire
channel (:func:`wapii_core.sandbox.wire_capture.serialise_request`: absolute URL, headers in the
order and spelling sent, the body de-chunked): the bytes the library wrote, never anything the
program says about them. A tunnel that carries a real TLS handshake (a program that bypassed the
provider) is refused.

One connection is a small state machine driven by the worker's single-threaded select loop:
``head`` (the proxy request line and headers) → ``request`` (h11 until the end of the first
message). Everything is bounded: bytes per connection, connections per program.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass, field
from typing import Any

from wapii_core.sandbox.wire_capture import MAX_WIRE_BYTES, serialise_request

MAX_HEAD = 16 << 10
"""Bytes of a proxy request's head (request line and headers) read at most."""
MAX_CONNECTIONS = 16
"""Connections one program may open to the recorder; more are closed at once."""
RESPONSE = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
            b"Connection: close\r\n\r\n{}")


TLS_HANDSHAKE = b"\x16"
"""The first byte of a TLS record that opens a handshake."""


class Refused(ValueError):
    """What a connection sent is no request the recorder reads (its message names why)."""


@dataclass
class Connection:
    """One accepted connection of the program."""

    sock: socket.socket
    state: str = "head"
    head: bytearray = field(default_factory=bytearray)
    authority: str = ""
    parser: Any = None
    scheme: str = "http"
    received: int = 0
    request: Any = None
    body: bytearray = field(default_factory=bytearray)
    answered: bool = False
    """The request's answer comes from the program's responder (:meth:`answer`), not :data:`RESPONSE`."""

    def fileno(self) -> int:
        return self.sock.fileno()

    def _send(self, data: bytes) -> None:
        self.sock.setblocking(True)
        self.sock.settimeout(1.0)
        try:
            self.sock.sendall(data)
        finally:
            self.sock.setblocking(False)

    def readable(self) -> bytes | None:
        """Reads what arrived; the serialised request once one is complete, else None.
        Raises :class:`Refused` (or OSError) when the connection is to be closed."""
        data = self.sock.recv(65536)
        if not data:
            raise Refused("the connection closed before a whole request arrived")
        self.received += len(data)
        if self.received > MAX_WIRE_BYTES + MAX_HEAD:
            raise Refused(f"more than {MAX_WIRE_BYTES} bytes were sent")
        if self.state == "head":
            return self._head(data)
        return self._request(data)

    def _head(self, data: bytes) -> bytes | None:
        self.head += data
        end = self.head.find(b"\r\n\r\n")
        if end < 0:
            if len(self.head) > MAX_HEAD:
                raise Refused("the request's head is larger than the recorder reads")
            return None
        line = bytes(self.head[: self.head.find(b"\r\n")])
        parts = line.split(b" ")
        if len(parts) == 3 and parts[0] == b"CONNECT":
            self.authority = parts[1].decode("latin-1")
            rest = bytes(self.head[end + 4:])
            self._send(b"HTTP/1.1 200 Connection established\r\n\r\n")
            self.state, self.scheme, self.head = "request", "https", bytearray()
            return self._request(rest) if rest else None
        self.state = "request"
        data, self.head = bytes(self.head), bytearray()
        return self._request(data)

    def _request(self, data: bytes) -> bytes | None:
        import h11

        if self.parser is None:
            if self.scheme == "https" and data[:1] == TLS_HANDSHAKE:
                raise Refused("the tunnel carries a TLS handshake: the program bypassed wapii's pass-through TLS")
            self.parser = h11.Connection(our_role=h11.SERVER, max_incomplete_event_size=MAX_HEAD)
        self.parser.receive_data(data)
        while True:
            try:
                event = self.parser.next_event()
            except h11.RemoteProtocolError as exc:
                raise Refused(f"the bytes sent are not an HTTP/1.1 request ({exc})") from None
            if event is h11.NEED_DATA:
                return None
            if isinstance(event, h11.Request):
                self.request = event
            elif isinstance(event, h11.Data):
                self.body += event.data
                if len(self.body) > MAX_WIRE_BYTES:
                    raise Refused(f"more than {MAX_WIRE_BYTES} bytes were sent")
            elif isinstance(event, h11.EndOfMessage):
                return self._message()
            else:
                raise Refused("the connection ended inside a request")

    def _message(self) -> bytes:
        request = self.request
        target = request.target.decode("latin-1")
        if self.scheme == "https":
            if not target.startswith("/"):
                raise Refused(f"the request target {target!r} inside a tunnel is not a path")
            host, _, port = self.authority.rpartition(":")
            authority = host if port == "443" else self.authority
            url = f"https://{authority}{target}"
        elif target.lower().startswith("http://"):
            url = target
        else:
            raise Refused(f"a proxy request's target {target!r} is not an absolute http:// URL")
        headers = [(name.decode("latin-1"), value) for name, value in request.headers.raw_items()]
        try:
            message = serialise_request(request.method.decode("latin-1"), url, headers, bytes(self.body))
        except ValueError as exc:
            raise Refused(str(exc)) from None
        if not self.answered:
            try:
                self._send(RESPONSE)
            except OSError:
                pass
        return message

    def answer(self, response: bytes) -> None:
        """Sends a responder's answer (an HTTP/1.1 response, :func:`~wapii_core.sandbox.wire_capture.serialise_response`)
        as this connection's last: the library opens another connection for its next request."""
        head, _, rest = response.partition(b"\r\n")
        self._send(head + b"\r\nConnection: close\r\n" + rest)

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass
