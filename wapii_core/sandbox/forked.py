"""What both sandbox workers (:mod:`.pyworker`, :mod:`.programworker`) do alike: fork one process per
job with two pipes (the wire channel and the process's other output) read together, keep their
memory from processes of the same user, and answer the pool's jobs one JSON line each.

A job that asks for answers (``"answers": true``, see :mod:`.dialogue`) gets a third pipe, the reply
channel, which its process reads: the worker relays every byte the process sends down its wire
channel to the supervisor as it comes (``{"id", "sent": base64}``) and writes the supervisor's
answers (``{"id", "reply": base64}``) to the reply channel; ``{"id", "end": detail}`` ends the job
as that ``runtime_error`` (:class:`Relay`). The worker never parses or answers a request itself.
"""

from __future__ import annotations

import base64
import json
import os
import select
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


class LineReader:
    """The worker's standard input read line by line from its descriptor, so that a job's loop can
    ``select`` on it (:attr:`fd`) without a buffered reader holding lines back."""

    def __init__(self, fd: int = 0) -> None:
        self.fd = fd
        self.buffer = bytearray()
        self.closed = False

    def pending(self) -> bytes | None:
        """A complete line already read, or None."""
        end = self.buffer.find(b"\n")
        if end < 0:
            return None
        line = bytes(self.buffer[:end])
        del self.buffer[:end + 1]
        return line

    def fill(self) -> bool:
        """Reads what the descriptor has (blocking); False at its end."""
        try:
            chunk = os.read(self.fd, 1 << 16)
        except OSError:
            chunk = b""
        if not chunk:
            self.closed = True
            return False
        self.buffer += chunk
        return True

    def readline(self) -> bytes | None:
        """The next line (blocking); None at the end of input."""
        while (line := self.pending()) is None:
            if self.closed or not self.fill():
                return None
        return line


STDIN = LineReader(0)


def send(message: dict[str, Any]) -> None:
    """Writes one protocol line to the supervisor."""
    stdout = sys.stdout.buffer
    stdout.write(json.dumps(message).encode() + b"\n")
    stdout.flush()


class Relay:
    """A job's conversation with the supervisor (see the module's docstring): ``reply`` is the write
    end of the job's reply channel, written without blocking (a process that does not read its
    answers only stops its own job)."""

    def __init__(self, job_id: Any, reply: int) -> None:
        self.job_id, self.reply = job_id, reply
        os.set_blocking(reply, False)
        self.unsent = bytearray()
        self.ended: str | None = None

    def forward(self, chunk: bytes) -> None:
        send({"id": self.job_id, "sent": base64.b64encode(chunk).decode("ascii")})

    def read_fds(self) -> list[int]:
        return [] if STDIN.closed else [STDIN.fd]

    def write_fds(self) -> list[int]:
        return [self.reply] if self.unsent else []

    def take_input(self, read: bool) -> None:
        """Takes the supervisor's lines for this job: those already buffered, after one read when ``read``."""
        if read:
            STDIN.fill()
        while (line := STDIN.pending()) is not None:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if not isinstance(message, dict) or message.get("id") != self.job_id:
                continue
            if isinstance(message.get("end"), str):
                self.ended = message["end"]
            elif isinstance(message.get("reply"), str):
                self.unsent += base64.b64decode(message["reply"])
        self.flush()

    def flush(self) -> None:
        """Writes what the pipe takes of the answers not yet written."""
        while self.unsent:
            try:
                written = os.write(self.reply, self.unsent)
            except BlockingIOError:
                return
            except OSError:  # the process closed its end: it wants no more answers
                self.unsent.clear()
                return
            del self.unsent[:written]

    def close(self) -> None:
        try:
            os.close(self.reply)
        except OSError:
            pass


def wait_readable(fds: list[int], relay: Relay | None, timeout: float) -> list[int]:
    """``select`` on ``fds`` (and the relay's descriptors); the relay's own are served here, the
    ready ones of ``fds`` returned."""
    if relay is None:
        return select.select(fds, [], [], timeout)[0]
    if STDIN.buffer.find(b"\n") >= 0:
        relay.take_input(read=False)
    ready, writable, _ = select.select([*fds, *relay.read_fds()], relay.write_fds(), [], timeout)
    if writable:
        relay.flush()
    if STDIN.fd in ready:
        relay.take_input(read=True)
    return [fd for fd in ready if fd in fds]


class Forked:
    """One forked job process and the worker's ends of its pipes: ``out`` (what a subclass keeps
    with :meth:`keep`), ``wire`` (every byte sent, up to :data:`MAX_WIRE_BYTES`) and, for a job
    that is answered (``job_id`` given), the reply channel that :attr:`relay` writes."""

    def __init__(self, start: Callable[[int, int, int | None], Any], job_id: Any = None) -> None:
        """Forks; the child runs ``start(out_w, wire_w, reply_r)`` (``reply_r`` None unless answered),
        which never returns."""
        out_r, out_w = os.pipe()
        wire_r, wire_w = os.pipe()
        reply_r, reply_w = os.pipe() if job_id is not None else (None, None)
        ends = [fd for fd in (out_r, out_w, wire_r, wire_w, reply_r, reply_w) if fd is not None]
        try:
            pid = os.fork()
        except OSError:
            for fd in ends:
                os.close(fd)
            raise
        if pid == 0:  # pragma: no cover - runs in the child, reported through its pipes
            if reply_w is not None:
                os.close(reply_w)
            start(out_w, wire_w, reply_r)
        os.close(out_w)
        os.close(wire_w)
        if reply_r is not None:
            os.close(reply_r)
        self.pid, self.out, self.wire = pid, out_r, wire_r
        self.relay = Relay(job_id, reply_w) if reply_w is not None else None
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
            if self.relay is not None and not self.overflow:
                self.relay.forward(chunk)
        else:
            self.keep(chunk)
        return True


def serve(ready: dict[str, Any], answer: Callable[[dict[str, Any], float], dict[str, Any]]) -> None:
    """Writes ``ready``, then answers each job line on standard input with ``{"id", **answer(job,
    timeout in seconds)}``; stops after an answer that says ``"retire": true``."""
    send(ready)
    while (line := STDIN.readline()) is not None:
        if not line.strip():
            continue
        job = json.loads(line)
        if "reply" in job or "end" in job:  # an answer for a job that has already ended
            continue
        result = answer(job, max(1, int(job.get("timeout_ms", 2000))) / 1000)
        send({"id": job["id"], **result})
        if result.get("retire"):
            return  # the supervisor replaces this worker before the next job
