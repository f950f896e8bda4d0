"""The program worker: runs each job's executable in its own sandboxed process and reports what it sent.

Started by :class:`~wapii_core.sandbox.programs.ProgramPool` (inside bubblewrap, or confined by
Landlock, as an unprivileged user, under rlimits) as ``python -I -B`` running :func:`main`. Its first
input line is the configuration (``env``, ``child_limits``, ``landlock``, ``max_output``); it makes
itself a child subreaper (every process a program starts, however it detaches, is re-parented to
this worker), writes ``{"ready": true}`` and answers each job ``{"id", "timeout_ms", "argv"}`` with
``{"id", "ok", "exit_code", "error", "detail", "wire", "output"}``.

For each job it forks a child that starts a session of its own, replaces its standard input with
``/dev/null``, its standard output and error with one pipe (the program's output: the first
``max_output`` bytes are kept), puts the write end of the capture channel on descriptor 3
(:mod:`.wire_capture`'s format: HTTP/1.1 requests in absolute form), closes every other
descriptor, lowers its rlimits, confines itself with its own Landlock domain (reads beneath the
allowed paths, executes only the listed programs, writes nothing, no TCP, no signals outside its
domain) and executes the program. The worker reads the output and the channel until the program
exits or its time is up, then kills the program's session and every process left below the worker
(it is their subreaper), reaps them, and reads what is left in the channel. No process serves two
jobs; nothing a program started outlives its job.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import sys
import time
from typing import Any

from wapii_core.sandbox.forked import Forked, not_dumpable, prctl, serve, wait_readable
from wapii_core.sandbox.limits import apply_limits
from wapii_core.sandbox.wire_capture import MAX_WIRE_BYTES

WIRE_FD = 3
"""The descriptor a program writes its requests to."""
REPLY_FD = 4
"""The descriptor an answered program reads its answers from (:mod:`.forked`'s relay); its number is
in the program's environment as ``WAPII_REPLIES`` only when its requests are answered."""
PR_SET_CHILD_SUBREAPER = 36
SWEEP_ROUNDS = 200
"""Kill-and-reap rounds after a job at most (a fork bomb's children are re-parented as their parents die)."""


def _children() -> list[int]:
    """The processes whose parent is this worker (its own children and the orphans re-parented to it)."""
    me = os.getpid()
    found: list[int] = []
    try:
        for tid in os.listdir(f"/proc/{me}/task"):
            try:
                with open(f"/proc/{me}/task/{tid}/children") as handle:
                    found += [int(pid) for pid in handle.read().split()]
            except OSError:
                continue
    except OSError:
        pass
    return found


def sweep() -> None:
    """Kills and reaps every process below this worker (a job's leftovers: goroutines' processes, a
    fork bomb, a process that left the program's session)."""
    for _ in range(SWEEP_ROUNDS):
        pids = _children()
        while True:  # reap what already ended
            try:
                pid, _status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.001)


class Job(Forked):
    """One program process; ``out`` is its output pipe (standard output and error), of which the first
    ``max_output`` bytes are kept."""

    def __init__(self, argv: list[str], config: dict[str, Any], job_id: Any = None) -> None:
        self.began = time.monotonic()
        self.max_output = int(config.get("max_output", 65536))
        self.output = bytearray()
        self.status: int | None = None
        super().__init__(lambda out_w, wire_w, reply_r: _child(argv, out_w, wire_w, config, reply_r), job_id)

    def keep(self, chunk: bytes) -> None:
        if len(self.output) < self.max_output:
            self.output += chunk[: self.max_output - len(self.output)]

    def wait(self, deadline: float) -> bool:
        """Reads output and capture until the program exits (True) or the deadline passes (False)."""
        pidfd = os.pidfd_open(self.pid)
        try:
            fds = [self.out, self.wire, pidfd]
            while not self.overflow:
                if self.relay is not None and self.relay.ended is not None:
                    return False
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                ready = wait_readable(fds, self.relay, remaining)
                for fd in ready:
                    if fd == pidfd:
                        _, self.status = os.waitpid(self.pid, 0)
                        return True
                    if not self._read(fd):
                        fds.remove(fd)
            return False
        finally:
            os.close(pidfd)

    def end(self) -> None:
        """Kills the program's session and everything left below the worker, then drains the pipes."""
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                _, self.status = os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        sweep()
        for fd in (self.wire, self.out):
            while not self.overflow and self._read(fd):
                pass
            os.close(fd)
        if self.relay is not None:
            self.relay.close()


def _child(argv: list[str], out_w: int, wire_w: int, config: dict[str, Any],
           reply_r: int | None = None) -> None:  # pragma: no cover
    try:
        os.setsid()
        import fcntl

        replies = fcntl.fcntl(reply_r, fcntl.F_DUPFD, 10) if reply_r is not None else None  # clear of 0-4
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out_w, 1)
        os.dup2(out_w, 2)
        os.dup2(wire_w, WIRE_FD)
        os.set_inheritable(WIRE_FD, True)  # dup2 onto itself keeps close-on-exec
        last = WIRE_FD
        env = config["env"]
        if replies is not None:
            os.dup2(replies, REPLY_FD)
            os.set_inheritable(REPLY_FD, True)
            last, env = REPLY_FD, {**env, "WAPII_REPLIES": str(REPLY_FD)}
        ruleset = config.get("landlock_ruleset")
        top = os.sysconf("SC_OPEN_MAX") if os.sysconf("SC_OPEN_MAX") > 0 else 65536
        keep = ruleset.fd if ruleset is not None and ruleset.fd is not None else None
        if keep is not None and keep > last:
            os.closerange(last + 1, keep)
            os.closerange(keep + 1, top)
        else:
            os.closerange(last + 1, top)
        apply_limits({int(kind): value for kind, value in config["child_limits"].items()})
        if ruleset is not None:
            ruleset.restrict()  # closes its descriptor: the program never holds it
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        os.execve(argv[0], argv, env)
    except BaseException as exc:  # noqa: BLE001 - told through the output pipe
        try:
            os.write(2, f"wapii: the program could not be started: {exc}\n".encode())
        except OSError:
            pass
    os._exit(127)


def describe(status: int | None) -> tuple[bool, int | None, str | None, str | None]:
    """``(ok, exit_code, error, detail)`` of a program that ended with wait ``status``."""
    if status is None:
        return False, None, "worker_died", "the program's end could not be observed"
    if os.WIFEXITED(status):
        code = os.WEXITSTATUS(status)
        if code == 0:
            return True, 0, None, None
        return False, code, "exited", f"the program exited with code {code}"
    sig = os.WTERMSIG(status)
    name = signal.Signals(sig).name if sig in signal.valid_signals() else str(sig)
    if sig in (signal.SIGXFSZ, signal.SIGXCPU):
        return False, None, "blocked: a resource limit", f"killed by {name}"
    return False, None, "worker_died", f"the program was killed by {name}"


def run_job(argv: list[str], timeout: float, config: dict[str, Any], job_id: Any = None) -> dict[str, Any]:
    """One job's answer (see the module's docstring); ``job_id`` given: its requests are answered
    through the supervisor (:class:`~.forked.Relay`, on :data:`REPLY_FD`)."""
    if not argv or not os.path.isabs(argv[0]):
        return {"ok": False, "exit_code": None, "error": "runtime_error", "detail": "argv[0] is not an absolute path",
                "wire": "", "output": ""}
    try:
        job = Job(argv, config, job_id)
    except OSError as exc:
        return {"ok": False, "exit_code": None, "error": "runtime_error", "wire": "", "output": "",
                "detail": f"the sandbox could not start a process for this program: {exc.strerror or exc} "
                          "(a process or thread limit of the sandbox user was reached)"}
    finished = job.wait(job.began + timeout)
    job.end()
    output = base64.b64encode(bytes(job.output)).decode("ascii")
    if job.overflow:
        return {"ok": False, "exit_code": None, "error": "runtime_error", "wire": "", "output": output,
                "detail": f"the program sent more than {MAX_WIRE_BYTES} bytes"}
    wire = base64.b64encode(bytes(job.sent)).decode("ascii")
    if job.relay is not None and job.relay.ended is not None:
        return {"ok": False, "exit_code": None, "error": "runtime_error", "detail": job.relay.ended, "wire": wire,
                "output": output}
    if not finished:
        return {"ok": False, "exit_code": None, "error": "timeout", "detail": f"timeout after {timeout:g} s",
                "wire": wire, "output": output}
    ok, code, error, detail = describe(job.status)
    return {"ok": ok, "exit_code": code, "error": error, "detail": detail, "wire": wire, "output": output}


def main() -> None:
    config = json.loads(sys.stdin.buffer.readline())
    if config.get("landlock"):
        from wapii_core.sandbox import landlock

        # prepared once; each program's process restricts itself with its inherited copy after fork
        ruleset = landlock.prepare(landlock.Policy.of(**config["landlock"]))
        import fcntl

        high = fcntl.fcntl(ruleset.fd, fcntl.F_DUPFD_CLOEXEC, 64)  # above the descriptors a program is given
        os.close(ruleset.fd)
        ruleset.fd = high
        config["landlock_ruleset"] = ruleset
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    not_dumpable()

    serve({"ready": True, "pid": os.getpid()},
          lambda job, timeout: run_job([str(part) for part in job.get("argv") or []], timeout, config,
                                       job["id"] if job.get("answers") is True else None))

if __name__ == "__main__":
    main()
