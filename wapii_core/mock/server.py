"""``wapii mock``'s HTTP server: one responder (one store) for the server's life, on 127.0.0.1.

Requests are answered one at a time (the store is not shared between threads otherwise); a body
longer than :data:`~wapii_core.mock.incoming.MAX_BODY` is refused with ``413`` unread.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from wapii_core.mock.exchange import MockRequest, Responder
from wapii_core.mock.incoming import MAX_BODY


class MockServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, port: int, responder: Responder) -> None:
        self.responder = responder
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", port), _Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(BaseHTTPRequestHandler):
    server: MockServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
        pass  # the command prints one line per exchange itself (see _answer)

    def _answer(self) -> None:
        from wapii_core.mock.responder import status_reason

        length = self.headers.get("Content-Length")
        try:
            size = int(length) if length else 0
        except ValueError:
            size = -1
        if size < 0 or size > MAX_BODY:
            self.send_response(413 if size > MAX_BODY else 400)
            self.send_header("Content-Length", "0")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            return
        body = self.rfile.read(size) if size else b""
        request = MockRequest(self.command, self.server.url + self.path, tuple(self.headers.items()), body)
        with self.server.lock:
            response = self.server.responder.answer(request)
        # the line before the answer: a client that has its answer finds the exchange printed
        print(f"{self.command} {self.path} -> {response.status} {response.reason}", flush=True)
        self.send_response(response.status, status_reason(response.status) or None)
        for name, value in response.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(response.body)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = do_TRACE = _answer
