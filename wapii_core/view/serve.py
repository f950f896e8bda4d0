"""Serve a written viewer bundle on 127.0.0.1 (static files only, the same page ``--bundle`` writes).

A request whose ``Host`` header is not the address the server listens on (``127.0.0.1:PORT``, or
``localhost:PORT``) is refused (403): a web page whose own name an attacker makes resolve to
127.0.0.1 (DNS rebinding) reads nothing of the runs.
"""

from __future__ import annotations

import errno
import functools
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
import threading
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


def refresh_while_written(directories: list[Path], site: Path, stop: threading.Event, every_s: float = 3.0) -> None:
    """Rewrite the bundle in ``site`` when the runs' files changed, looking every ``every_s`` seconds
    while one of the runs is being written (and once after its writer ends), until ``stop`` is set:
    the page, which polls ``data/stamp.js``, reloads with what the run holds now."""
    from wapii_core.store.lock import writer_pid
    from wapii_core.view.bundle import write_bundle

    written = any(writer_pid(d) is not None for d in directories)
    seen = None  # the files may have changed since the bundle was written: the first round rewrites it
    while written and not stop.wait(every_s):
        written = any(writer_pid(d) is not None for d in directories)
        now = _signature(directories)  # before reading: a change while it is read is seen next round
        if now == seen:
            continue
        try:
            write_bundle(directories, site)
        except (WapiiError, OSError):
            continue  # a line being written, a file being replaced: the next round reads it whole
        seen = now


def _signature(directories: list[Path]) -> tuple:
    """What changes when a run directory's files do: each file's size and modification time."""
    from wapii_core.store.rundir import RUN_FILES

    out = []
    for directory in directories:
        for name in RUN_FILES:
            try:
                stat = (Path(directory) / name).stat()
            except OSError:
                out.append(None)
                continue
            out.append((stat.st_size, stat.st_mtime_ns))
    return tuple(out)
