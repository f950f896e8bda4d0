"""The Python worker: a pre-loaded parent that runs each snippet in its own forked, sandboxed child.

Started by :class:`~wapii_core.sandbox.PythonPool` (inside bubblewrap, as an unprivileged user,
under rlimits) as ``python -I -B`` running :func:`main`. Its first input line is the
configuration (``sys_path``, ``preload``, ``harness``, ``warmup``, ``read_roots``, ``child_limits``,
``seccomp``, ``landlock``); it imports the preloaded modules and the harness once, runs the harness on the
adapter's ``warmup`` snippets (so that what libraries initialise lazily is done once, before any
fork), makes itself non-dumpable (a process of the same user cannot read its memory), writes
``{"ready": true, ...}``, and then answers each job ``{"id", "timeout_ms", "code"}`` with
``{"id", "ok", "value", "error", "detail", "wire"}``. A job with ``"answers": true`` has its
requests answered through the supervisor (:mod:`.forked`'s relay, :mod:`.dialogue`) and runs to its end.

The parent never runs snippet code. For each job it forks a fresh child (:mod:`.pychild`) holding
the snippet, reads the child's answer and, at the same time, every byte the child sends down its
wire channel (:mod:`.wire_capture`), until the answer or the job's timeout; then it kills the child,
reads what is left in the channel and reports the answer with the bytes (base64 in ``wire``), or
``timeout``, ``exited`` (the snippet ended the process: ``os._exit``, a signal it sent itself),
``worker_died`` (killed by another signal) or ``blocked: ...`` (killed for a syscall of another
architecture). A fork of the pre-loaded parent costs about a millisecond; no process ever runs two
snippets, so no snippet can change what another one runs in. A child runs as the parent's user, so
it can still lower the parent's own limits or priority from outside (``prlimit``): the parent
compares them after every job, and a job that changed them is ``blocked`` and the worker's last.
"""

from __future__ import annotations

import base64
import gc
import importlib
import json
import os
import resource
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from wapii_core.base.jsonwalk import deeper_than
from wapii_core.sandbox import seccomp
from wapii_core.sandbox.forked import Forked, not_dumpable, serve, wait_readable
from wapii_core.sandbox.pychild import MAX_ANSWER, MAX_ANSWER_DEPTH, child_main
from wapii_core.sandbox.wire_capture import MAX_WIRE_BYTES


def resolve(spec: str) -> Callable[[str], Any]:
    """``"package.module:function"`` -> the function."""
    module_name, _, attribute = spec.partition(":")
    if not attribute:
        raise ValueError(f"harness {spec!r} is not 'module:function'")
    target: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        target = getattr(target, part)
    return target


class Child(Forked):
    """One forked snippet process running one snippet; ``out`` is its answer pipe."""

    def __init__(self, code: str, harness: Callable[[str], Any], config: dict[str, Any], job_id: Any = None) -> None:
        super().__init__(lambda answers_w, wire_w, reply_r: child_main(code, answers_w, wire_w, harness, config,
                                                                       reply_r), job_id)
        self.answer = b""

    def keep(self, chunk: bytes) -> None:
        self.answer += chunk

    def wait_answer(self, deadline: float) -> bytes | None:
        """The child's answer line, reading what it sends meanwhile; None at the deadline or when the
        child sent more than the channel takes; b"" when it closed its answer pipe without one."""
        open_fds = [self.out, self.wire]
        while b"\n" not in self.answer:
            if self.overflow or len(self.answer) > MAX_ANSWER + 4096:
                return None
            if self.relay is not None and self.relay.ended is not None:
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready = wait_readable(open_fds, self.relay, remaining)
            for fd in ready:
                if not self._read(fd):
                    open_fds.remove(fd)
                    if fd == self.out:
                        return b""
        return self.answer.partition(b"\n")[0]

    def end(self) -> int:
        """Kills and reaps the child, then reads the rest of what it sent; returns its wait status."""
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        _, status = os.waitpid(self.pid, 0)
        while not self.overflow and self._read(self.wire):
            pass
        for fd in (self.out, self.wire):
            os.close(fd)
        if self.relay is not None:
            self.relay.close()
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


RLIMITS = tuple(getattr(resource, name) for name in dir(resource) if name.startswith("RLIMIT_"))


def process_settings() -> tuple[Any, ...]:
    """What a process of the same user may change about this one from outside (``prlimit``,
    ``setpriority``, ``sched_setaffinity``, ``sched_setscheduler``): its resource limits, nice value,
    CPU affinity and scheduling policy."""
    return (tuple(resource.getrlimit(kind) for kind in RLIMITS), os.getpriority(os.PRIO_PROCESS, 0),
            frozenset(os.sched_getaffinity(0)), os.sched_getscheduler(0))


class Parent:
    """Runs each job in a child forked from this pre-loaded process for that job alone."""

    def __init__(self, harness: Callable[[str], Any], config: dict[str, Any]) -> None:
        self.harness = harness
        self.config = config
        self.settings = process_settings()

    def run(self, code: str, timeout: float, job_id: Any = None) -> dict[str, Any]:
        """``{"ok", "value", "error", "detail", "wire"}``: the child's answer (or why there is none)
        and, base64-encoded, every byte it sent down the wire channel.

        A child that changed this process's settings from outside (:func:`process_settings`: a
        lower open-file limit would make the next fork fail, a CPU limit kill this process during a
        later snippet) is ``blocked``, and the answer carries ``"retire": true``: this process
        must not run another snippet. ``job_id`` given: the snippet's requests are answered through
        the supervisor (:class:`~.forked.Relay`).
        """
        try:
            child = Child(code, self.harness, self.config, job_id)
        except OSError as exc:  # EAGAIN: the user's process limit, held by another snippet's threads
            return {"ok": False, "value": None, "error": "runtime_error", "wire": "",
                    "detail": f"the sandbox could not start a process for this snippet: {exc.strerror or exc} "
                              "(a process or thread limit of the sandbox user was reached)"}
        line = child.wait_answer(time.monotonic() + timeout)
        status = child.end()
        answer = self._answer(child, line, status, timeout)
        if process_settings() != self.settings:
            return {"ok": False, "value": None, "error": "blocked: changing its worker's limits or scheduling",
                    "detail": "the snippet changed the resource limits, priority, CPU affinity or scheduling "
                              "policy of the process that runs the snippets", "wire": answer["wire"], "retire": True}
        return answer

    def _answer(self, child: Child, line: bytes | None, status: int, timeout: float) -> dict[str, Any]:
        wire = base64.b64encode(bytes(child.sent)).decode("ascii")
        if child.relay is not None and child.relay.ended is not None:
            return {"ok": False, "value": None, "error": "runtime_error", "wire": wire, "detail": child.relay.ended}
        if child.overflow:
            return {"ok": False, "value": None, "error": "runtime_error", "wire": "",
                    "detail": f"the snippet sent more than {MAX_WIRE_BYTES} bytes"}
        if line is None:
            return {"ok": False, "value": None, "error": "timeout", "detail": f"timeout after {timeout:g} s",
                    "wire": wire}
        if not line:
            error, detail = describe_death(status)
            return {"ok": False, "value": None, "error": error, "detail": detail, "wire": wire}
        try:
            answer = json.loads(line)
        except (ValueError, RecursionError):
            answer = None
        if not isinstance(answer, dict):
            return {"ok": False, "value": None, "error": "runtime_error", "wire": wire,
                    "detail": "bad_capture: the snippet process answered something that is not a JSON object"}
        if deeper_than(answer, MAX_ANSWER_DEPTH):
            return {"ok": False, "value": None, "error": "runtime_error", "wire": wire,
                    "detail": f"bad_capture: the snippet process answered JSON nested over {MAX_ANSWER_DEPTH} deep"}
        return {**{key: answer.get(key) for key in ("ok", "value", "error", "detail")}, "wire": wire}


def main() -> None:
    config = json.loads(sys.stdin.buffer.readline())
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
        seccomp.compile_filter()  # compiled once here; each child only loads it
    if config.get("landlock"):  # prepared once here; each child only restricts itself with it
        from wapii_core.sandbox import landlock

        config["landlock_ruleset"] = landlock.prepare(landlock.Policy.of(**config["landlock"]))
    not_dumpable()
    gc.freeze()  # what the parent built stays out of the children's collections: fewer copied pages
    parent = Parent(harness, config)

    serve({"ready": True, "python": sys.version.split()[0], "pid": os.getpid(), "seccomp": config["seccomp"]},
          lambda job, timeout: parent.run(str(job["code"]), timeout, job["id"] if job.get("answers") is True else None))


if __name__ == "__main__":
    main()
