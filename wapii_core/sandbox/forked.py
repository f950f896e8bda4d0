"""What both sandbox workers (:mod:`.pyworker`, :mod:`.programworker`) do alike: fork one process per
job with two pipes (the wire channel and the process's other output) read together, keep their
memory from processes of the same user, and answer the pool's jobs one JSON line each."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

from wapii_core.sandbox.wire_capture import MAX_WIRE_BYTES

PR_SET_DUMPABLE = 4


def prctl(option: int, value: int) -> None:
    """``prctl(option, value)`` on this process; nothing where the call is unavailable."""
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def not_dumpable() -> None:
    """Keeps processes of the same user (the jobs' processes) from reading this one's memory through
    ``/proc/<pid>/mem`` or attaching to it."""
    prctl(PR_SET_DUMPABLE, 0)


class Forked:
    """One forked job process and the worker's ends of its two pipes: ``out`` (what a subclass keeps
    with :meth:`keep`) and ``wire`` (every byte sent, up to :data:`MAX_WIRE_BYTES`)."""

    def __init__(self, start: Callable[[int, int], Any]) -> None:
        """Forks; the child runs ``start(out_w, wire_w)``, which never returns."""
        out_r, out_w = os.pipe()
        wire_r, wire_w = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            for fd in (out_r, out_w, wire_r, wire_w):
                os.close(fd)
            raise
        if pid == 0:  # pragma: no cover - runs in the child, reported through its pipes
            start(out_w, wire_w)
        os.close(out_w)
        os.close(wire_w)
        self.pid, self.out, self.wire = pid, out_r, wire_r
        self.sent = bytearray()
        self.overflow = False

    def keep(self, chunk: bytes) -> None:
        """Takes what the ``out`` pipe gave."""
        raise NotImplementedError

    def _read(self, fd: int) -> bool:
        """Reads what ``fd`` has; False at its end."""
        try:
            chunk = os.read(fd, 1 << 16)
        except OSError:
            return False
        if not chunk:
            return False
        if fd == self.wire:
            self.sent += chunk
            self.overflow = self.overflow or len(self.sent) > MAX_WIRE_BYTES
        else:
            self.keep(chunk)
        return True


def serve(ready: dict[str, Any], answer: Callable[[dict[str, Any], float], dict[str, Any]]) -> None:
    """Writes ``ready``, then answers each job line on standard input with ``{"id", **answer(job,
    timeout in seconds)}``; stops after an answer that says ``"retire": true``."""
    stdout = sys.stdout.buffer

    def send(message: dict[str, Any]) -> None:
        stdout.write(json.dumps(message).encode() + b"\n")
        stdout.flush()

    send(ready)
    for line in sys.stdin.buffer:
        job = json.loads(line)
        result = answer(job, max(1, int(job.get("timeout_ms", 2000))) / 1000)
        send({"id": job["id"], **result})
        if result.get("retire"):
            return  # the supervisor replaces this worker before the next job
