"""The Python worker: a pre-loaded parent that runs each snippet in a forked, sandboxed child.

Started by :class:`~wapii_core.sandbox.PythonPool` (inside bubblewrap, as an unprivileged user,
under rlimits) as ``python -I -B`` running :func:`main`. Its first input line is the
configuration (``sys_path``, ``preload``, ``harness``, ``warmup``, ``watch``, ``read_roots``,
``child_limits``, ``seccomp``, ``max_jobs``); it imports the preloaded modules and the harness once,
runs the harness on the adapter's ``warmup`` snippets (so that state libraries initialise lazily is
part of every child's baseline), writes ``{"ready": true, ...}``, and then answers each job ``{"id", "timeout_ms", "code"}`` with
``{"id", "ok", "value", "error", "detail"}``.

The parent never runs snippet code. It forks a child (:mod:`.pychild`) that serves jobs until one
taints it, waits for each answer until the job's timeout, and reports ``timeout`` (the child is
killed), ``exited`` (the snippet ended the process: ``os._exit``, a signal it sent itself),
``worker_died`` (killed by another signal) or ``blocked: ...`` (killed for a syscall of another
architecture). Forking from the pre-loaded parent costs ~1-2 ms; a clean child serves up to
``max_jobs`` snippets without forking at all.
"""

from __future__ import annotations

import importlib
import json
import os
import secrets
import select
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from .pychild import MAX_ANSWER, child_main


def resolve(spec: str) -> Callable[[str], Any]:
    """``"package.module:function"`` -> the function."""
    module_name, _, attribute = spec.partition(":")
    if not attribute:
        raise ValueError(f"harness {spec!r} is not 'module:function'")
    target: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        target = getattr(target, part)
    return target


class Child:
    """One forked snippet process and the parent's ends of its two pipes."""

    def __init__(self, harness: Callable[[str], Any], config: dict[str, Any]) -> None:
        jobs_r, jobs_w = os.pipe()
        answers_r, answers_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child, reported through its pipe
            child_main(jobs_r, answers_w, [jobs_w, answers_r], harness, config)
        os.close(jobs_r)
        os.close(answers_w)
        self.pid, self.jobs, self.answers = pid, jobs_w, answers_r
        self.buffer = b""

    def send(self, message: dict[str, Any]) -> bool:
        data = json.dumps(message).encode() + b"\n"
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self.jobs, view):]
        except OSError:
            return False
        return True

    def read_line(self, deadline: float) -> bytes | None:
        """The next line from the child; None at the deadline; b"" when it closed its pipe."""
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([self.answers], [], [], remaining)
            if not ready:
                return None
            chunk = os.read(self.answers, 1 << 16)
            if not chunk:
                return b""
            self.buffer += chunk
            if len(self.buffer) > MAX_ANSWER + 4096:
                return b""
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def exited(self) -> bool:
        """Whether the child has ended (it is then reaped)."""
        pid, _ = os.waitpid(self.pid, os.WNOHANG)
        if pid == 0:
            return False
        for fd in (self.jobs, self.answers):
            os.close(fd)
        return True

    def end(self, kill: bool) -> int:
        """Reaps the child (killing it first if asked); returns its wait status."""
        if kill:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for fd in (self.jobs, self.answers):
            try:
                os.close(fd)
            except OSError:
                pass
        _, status = os.waitpid(self.pid, 0)
        return status


def describe_death(status: int) -> tuple[str, str]:
    """The ``(error, detail)`` of a child that ended during a job."""
    if os.WIFEXITED(status):
        return "exited", f"the snippet ended its process (exit code {os.WEXITSTATUS(status)})"
    sig = os.WTERMSIG(status)
    name = signal.Signals(sig).name if sig in signal.valid_signals() else str(sig)
    if sig == signal.SIGSYS:
        return "blocked: a system call of another architecture", f"killed by {name}"
    if sig in (signal.SIGXFSZ, signal.SIGXCPU):
        return "blocked: a resource limit", f"killed by {name}"
    return "worker_died", f"the snippet process was killed by {name}"


class Parent:
    """Runs jobs through children forked from this pre-loaded process."""

    def __init__(self, harness: Callable[[str], Any], config: dict[str, Any]) -> None:
        self.harness = harness
        self.config = config
        self.child: Child | None = None

    def run(self, code: str, timeout: float) -> dict[str, Any]:
        if self.child is not None and self.child.exited():
            self.child = None  # it ended between jobs: this job has not run yet
        if self.child is None:
            self.child = Child(self.harness, self.config)
        child = self.child
        nonce = secrets.token_hex(16)
        if not child.send({"nonce": nonce, "code": code}):
            return self._died(kill=True)
        line = child.read_line(time.monotonic() + timeout)
        if line is None:
            self.child = None
            child.end(kill=True)
            return {"ok": False, "value": None, "error": "timeout", "detail": f"timeout after {timeout:g} s"}
        if not line:
            return self._died(kill=False)
        try:
            answer = json.loads(line)
            valid = isinstance(answer, dict) and answer.get("nonce") == nonce
        except ValueError:
            valid = False
        if not valid:
            self.child = None
            child.end(kill=True)
            return {"ok": False, "value": None, "error": "runtime_error", "detail": "the snippet forged its answer"}
        if answer.get("tainted"):
            self.child = None
            child.end(kill=False)
        return {key: answer.get(key) for key in ("ok", "value", "error", "detail")}

    def _died(self, kill: bool) -> dict[str, Any]:
        assert self.child is not None
        status = self.child.end(kill=kill)
        self.child = None
        error, detail = describe_death(status)
        return {"ok": False, "value": None, "error": error, "detail": detail}


def main() -> None:
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    config = json.loads(stdin.readline())
    sys.path[:0] = [entry for entry in config["sys_path"] if entry not in sys.path]
    for name in config["preload"]:
        importlib.import_module(name)
    harness = resolve(config["harness"])
    for code in config["warmup"]:  # trusted code from the adapter: initialises what snippets would
        try:
            harness(code)
        except BaseException:  # noqa: BLE001 - a warm-up only needs to have run
            pass
    if threading.active_count() > 1:
        raise RuntimeError("the harness left a thread running in the pre-loaded worker, which cannot fork safely")
    if config["seccomp"]:
        import pyseccomp  # noqa: F401 - loaded once here, not in every child
    if config.get("landlock"):  # prepared once here; each child only restricts itself with it
        from . import landlock

        config["landlock_ruleset"] = landlock.prepare(landlock.Policy.of(**config["landlock"]))
    parent = Parent(harness, config)

    def send(message: dict[str, Any]) -> None:
        stdout.write(json.dumps(message).encode() + b"\n")
        stdout.flush()

    send({"ready": True, "python": sys.version.split()[0], "pid": os.getpid(), "seccomp": config["seccomp"]})
    for line in stdin:
        job = json.loads(line)
        answer = parent.run(str(job["code"]), max(1, int(job.get("timeout_ms", 2000))) / 1000)
        send({"id": job["id"], **answer})
    if parent.child is not None:
        parent.child.end(kill=True)


if __name__ == "__main__":
    main()
