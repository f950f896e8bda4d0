"""Serve a written viewer bundle on 127.0.0.1 (static files only, the same page ``--bundle`` writes)."""

from __future__ import annotations

import errno
import functools
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from wapii_core.base.errors import WapiiError


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # one line per file would drown the terminal
        pass


def bind(directory: Path, port: int) -> ThreadingHTTPServer:
    """A server of ``directory`` on 127.0.0.1:``port`` (0: any free port); a port in use is one line."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    try:
        return ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise WapiiError(f"port {port} on 127.0.0.1 is in use; give another with --port (or 0 for any free one)")
        raise WapiiError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
