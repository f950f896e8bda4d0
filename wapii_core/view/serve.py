"""Serve a written viewer bundle on 127.0.0.1 (static files only, the same page ``--bundle`` writes).

A request whose ``Host`` header is not the address the server listens on (``127.0.0.1:PORT``, or
``localhost:PORT``) is refused (403): a web page whose own name an attacker makes resolve to
127.0.0.1 (DNS rebinding) reads nothing of the runs.
"""

from __future__ import annotations

import errno
import functools
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from wapii_core.base.errors import WapiiError

HOST = "127.0.0.1"


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # one line per file would drown the terminal
        pass

    def _own_host(self) -> bool:
        port = self.server.server_address[1]
        return (self.headers.get("Host") or "").strip().lower() in {f"{HOST}:{port}", f"localhost:{port}"}

    def send_head(self):  # type: ignore[no-untyped-def]  # GET and HEAD both start here
        if not self._own_host():
            self.send_error(403, "Host is not the address this server listens on")
            return None
        return super().send_head()


def bind(directory: Path, port: int) -> ThreadingHTTPServer:
    """A server of ``directory`` on 127.0.0.1:``port`` (0: any free port); a port in use is one line."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    try:
        return ThreadingHTTPServer((HOST, port), handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise WapiiError(f"port {port} on 127.0.0.1 is in use; give another with --port (or 0 for any free one)")
        raise WapiiError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
