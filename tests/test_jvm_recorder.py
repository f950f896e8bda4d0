"""The Java recorder on its own: what a client sends through it (a CONNECT tunnel carrying the HTTP
that wapii's pass-through TLS let through, or a plain proxy request) becomes the wire channel's
message, read as a server reads it; what is no request, a real TLS handshake included, is refused."""

from __future__ import annotations

import select
import socket
import ssl
import threading

import pytest

from wapii_core.jvm.recorder import Connection, Refused
from wapii_core.sandbox.wire_capture import parse_requests


def _record(client_side) -> bytes:
    """Feeds what ``client_side(sock)`` sends into a recorder connection; the message it records."""
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    connection = Connection(ours)
    thread = threading.Thread(target=client_side, args=(theirs,), daemon=True)
    thread.start()
    try:
        while True:
            select.select([ours], [], [], 5)
            message = connection.readable()
            if message is not None:
                return message
    finally:
        connection.close()  # the client side sees the end (a TLS client waiting for an answer, too)
        thread.join(5)
        theirs.close()


def test_a_tunnelled_chunked_request_is_recorded_with_its_absolute_url() -> None:
    def send(sock: socket.socket) -> None:
        sock.sendall(b"CONNECT app.asana.com:443 HTTP/1.1\r\nHost: app.asana.com:443\r\n\r\n")
        assert sock.recv(100).startswith(b"HTTP/1.1 200")
        sock.sendall(b"PUT /api/1.0/tasks/1?x=%20y HTTP/1.1\r\nHost: app.asana.com\r\nX-Own: a\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
        sock.recv(100)

    request, = parse_requests(_record(send))
    assert (request.method, request.target) == ("PUT", "https://app.asana.com/api/1.0/tasks/1?x=%20y")
    assert ("X-Own", "a") in request.headers and request.body == b"abcde"


def test_a_tunnel_on_another_port_keeps_it_in_the_url() -> None:
    def send(sock: socket.socket) -> None:
        sock.sendall(b"CONNECT example.com:8443 HTTP/1.1\r\n\r\nGET /a HTTP/1.1\r\nHost: example.com:8443\r\n\r\n")
        sock.recv(200)

    assert parse_requests(_record(send))[0].target == "https://example.com:8443/a"


def test_a_real_tls_handshake_in_the_tunnel_is_refused() -> None:
    """A program that bypasses the pass-through provider speaks TLS; the recorder holds no key and
    says so instead of recording anything."""
    client = ssl.create_default_context()

    def send(sock: socket.socket) -> None:
        sock.sendall(b"CONNECT app.asana.com:443 HTTP/1.1\r\n\r\n")
        sock.recv(100)
        try:
            client.wrap_socket(sock, server_hostname="app.asana.com")
        except (OSError, ssl.SSLError):
            pass

    with pytest.raises(Refused, match="TLS handshake"):
        _record(send)


def test_a_plain_proxy_request_keeps_its_target_and_garbage_is_refused() -> None:
    message = _record(lambda s: s.sendall(b"GET http://example.com/a?b=c HTTP/1.1\r\nHost: example.com\r\n\r\n"))
    assert parse_requests(message)[0].target == "http://example.com/a?b=c"
    with pytest.raises(Refused):
        _record(lambda s: s.sendall(b"GARBAGE\r\n\r\n"))
    with pytest.raises(Refused, match="not an absolute"):
        _record(lambda s: s.sendall(b"GET /relative HTTP/1.1\r\nHost: x\r\n\r\n"))
