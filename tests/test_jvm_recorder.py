"""The Java recorder on its own: what a client sends through it (CONNECT and TLS, or a plain proxy
request) becomes the wire channel's message, read as a server reads it; what is no request is refused."""

from __future__ import annotations

import select
import socket
import ssl
import threading

import pytest

from wapii_core.jvm.recorder import Connection, Refused
from wapii_core.sandbox.wire_capture import parse_requests

trustme = pytest.importorskip("trustme")


def _record(client_side, context: ssl.SSLContext) -> bytes:
    """Feeds what ``client_side(sock)`` sends into a recorder connection; the message it records."""
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    connection = Connection(ours, context)
    thread = threading.Thread(target=client_side, args=(theirs,), daemon=True)
    thread.start()
    try:
        while True:
            select.select([ours], [], [], 5)
            message = connection.readable()
            if message is not None:
                return message
    finally:
        thread.join(5)
        connection.close()
        theirs.close()


@pytest.fixture(scope="module")
def certificates():
    ca = trustme.CA()
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ca.issue_cert("app.asana.com").configure_cert(server)
    server.set_alpn_protocols(["http/1.1"])
    client = ssl.create_default_context()
    ca.configure_trust(client)
    return server, client


def test_a_tunnelled_chunked_request_is_recorded_with_its_absolute_url(certificates) -> None:
    server, client = certificates

    def send(sock: socket.socket) -> None:
        sock.sendall(b"CONNECT app.asana.com:443 HTTP/1.1\r\nHost: app.asana.com:443\r\n\r\n")
        assert sock.recv(100).startswith(b"HTTP/1.1 200")
        tls = client.wrap_socket(sock, server_hostname="app.asana.com")
        tls.sendall(b"PUT /api/1.0/tasks/1?x=%20y HTTP/1.1\r\nHost: app.asana.com\r\nX-Own: a\r\n"
                    b"Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
        tls.recv(100)

    request, = parse_requests(_record(send, server))
    assert (request.method, request.target) == ("PUT", "https://app.asana.com/api/1.0/tasks/1?x=%20y")
    assert ("X-Own", "a") in request.headers and request.body == b"abcde"


def test_a_plain_proxy_request_keeps_its_target_and_garbage_is_refused(certificates) -> None:
    server, _ = certificates
    message = _record(lambda s: s.sendall(b"GET http://example.com/a?b=c HTTP/1.1\r\nHost: example.com\r\n\r\n"),
                      server)
    assert parse_requests(message)[0].target == "http://example.com/a?b=c"
    with pytest.raises(Refused):
        _record(lambda s: s.sendall(b"GARBAGE\r\n\r\n"), server)
    with pytest.raises(Refused, match="not an absolute"):
        _record(lambda s: s.sendall(b"GET /relative HTTP/1.1\r\nHost: x\r\n\r\n"), server)
