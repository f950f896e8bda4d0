"""The sandboxed JVM worker: runs each compiled program in a JVM of its own and records what it sends.

Protocol (:mod:`wapii_core.sandbox.supervisor`): one ``init`` line ``{"java": [argv prefix],
"read": [paths], "run": [paths], "limits": {RLIMIT: value}, "landlock": bool}``, then
``{"ready": true}``; each job ``{"id", "timeout_ms", "dir", "classpath", "main": [main class, arguments]}`` is answered
``{"id", "wire": base64 | "", "requests": n, "error"?, "detail"?, "exit"?}``. A job with ``"answers": true``
runs to the JVM's end: each whole request is relayed to the supervisor (``{"id", "sent": base64}``) and
the supervisor's answer (``{"id", "reply": base64}``) is the response the library reads on that
connection (:mod:`wapii_core.sandbox.forked`'s protocol; ``{"id", "end": detail}`` ends the job).

The worker listens on a loopback port of its sandbox (bubblewrap's network namespace holds nothing
else) and hands it to each JVM as its HTTP and HTTPS proxy; the recorder (:mod:`.recorder`) reads
the requests there. Per job: the JVM starts in a new session, confined by a Landlock domain of its
own (it reads the system's files, the JDK, the shared class-data archive and its own program's
directory, runs only the ``java`` launcher, writes nothing, connects only to the recorder's port)
and under rlimits; once its first whole request arrives, or it ends, or its time is up, the JVM
and everything it started are killed (the worker is their child subreaper, so a process that left
the session is found too). The worker is not dumpable: a JVM of the same user cannot read its
memory. It is single-threaded (one select loop), so ``preexec_fn`` is safe here.
"""

from __future__ import annotations

import base64
import ctypes
import json
import os
import resource
import select
import signal
import socket
import subprocess
import sys
import time
from typing import Any

from wapii_core.jvm.recorder import MAX_CONNECTIONS, Connection, Refused
from wapii_core.sandbox.forked import STDIN

ANSWERED_CONNECTIONS = 80
"""Connections an answered program may open (each answer closes its connection; the supervisor's
dialogue bounds the requests, :data:`wapii_core.sandbox.dialogue.MAX_EXCHANGES`)."""

OUTPUT_TAIL = 2000
"""Characters of a JVM's output kept for an error's detail."""
PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER = 4, 36


def _send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def _descendants() -> list[int]:
    """Processes whose parent is this worker (as subreaper, every orphaned descendant's parent)."""
    me, found = os.getpid(), []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == me:
            found.append(int(entry))
    return found


def _reap(process: subprocess.Popen[bytes], flags: int) -> float:
    """Waits for the JVM (``flags``: ``os.WNOHANG`` to only look) and sets its return code; the CPU
    seconds it used once it is reaped (its own, every thread), else 0."""
    if getattr(process, "wapii_cpu", None) is not None:
        return process.wapii_cpu  # type: ignore[attr-defined]
    try:
        pid, status, usage = os.wait4(process.pid, flags)
    except ChildProcessError:
        process.returncode = process.returncode if process.returncode is not None else -signal.SIGKILL
        return 0.0
    if pid == 0:
        return 0.0
    process.returncode = os.waitstatus_to_exitcode(status)
    process.wapii_cpu = usage.ru_utime + usage.ru_stime  # type: ignore[attr-defined]
    return process.wapii_cpu  # type: ignore[attr-defined]


def _kill_all(process: subprocess.Popen[bytes], reaper: bool, scoped: bool) -> float:
    """Kills the JVM's session and, in the sandboxed worker (the ``reaper`` of its descendants),
    every other descendant, and reaps them; returns the CPU seconds the JVM used. ``scoped``: this
    worker can signal nothing but its own descendants (its own PID namespace, or a Landlock domain
    that scopes signals), so ``kill(-1)`` reaches exactly them; else they are found in ``/proc``."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except OSError:
        pass
    cpu = _reap(process, os.WNOHANG if process.returncode is not None else 0)
    for _ in range(100 if reaper else 0):
        left = [] if scoped else _descendants()
        if scoped:
            try:
                os.kill(-1, signal.SIGKILL)
            except OSError:
                pass
        else:
            if not left:
                break
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            break
        time.sleep(0.002)
    return cpu


def _summary(output: str) -> str:
    """What a JVM's output says went wrong: from its first uncaught exception on, else its last lines."""
    start = output.find("Exception in thread")
    text = output[start:] if start >= 0 else output[-OUTPUT_TAIL:]
    return text.strip()[:OUTPUT_TAIL]


def _listen(ports: list[int]) -> socket.socket:
    """A loopback listener on the first of ``ports`` that is free (without bubblewrap the ports are
    the host's, and each worker's Landlock domain allows only these)."""
    error: OSError | None = None
    for port in ports:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            listener.bind(("127.0.0.1", port))
        except OSError as exc:
            listener.close()
            error = exc
            continue
        listener.listen(MAX_CONNECTIONS)
        return listener
    raise OSError(f"no recorder port is free: {error}")


class Worker:
    def __init__(self, config: dict[str, Any]) -> None:
        self.java = list(config["java"])
        self.read = list(config["read"])
        self.run = list(config["run"])
        self.limits = {int(k): int(v) for k, v in config["limits"].items()}
        self.landlock = bool(config["landlock"])
        self.reaper = bool(config.get("reaper"))
        self.scoped = bool(config.get("scoped"))
        self.listener = _listen([int(port) for port in config.get("ports") or [0]])
        self.listener.setblocking(False)
        self.port = self.listener.getsockname()[1]

    def _confine(self, ruleset: Any) -> Any:
        limits = self.limits

        def preexec() -> None:
            for kind, value in limits.items():
                _, hard = resource.getrlimit(kind)
                resource.setrlimit(kind, (value, value) if hard == resource.RLIM_INFINITY else (min(value, hard),) * 2)
            if ruleset is not None:
                ruleset.restrict()

        return preexec

    def _ruleset(self, directory: str) -> Any:
        if not self.landlock:
            return None
        from wapii_core.sandbox import landlock

        return landlock.prepare(landlock.Policy.of([*self.read, directory], write=["/dev/null"], run=self.run,
                                                   connect=[self.port]))

    def job(self, job: dict[str, Any]) -> dict[str, Any]:
        deadline = time.monotonic() + job["timeout_ms"] / 1000
        argv = [*self.java, f"-Dhttps.proxyPort={self.port}", f"-Dhttp.proxyPort={self.port}",
                "-cp", job["classpath"], *job["main"]]
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   start_new_session=True, preexec_fn=self._confine(self._ruleset(job["dir"])),
                                   close_fds=True, env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"})
        output = bytearray()
        connections: list[Connection] = []
        opened = 0
        requests: list[bytes] = []
        refusals: list[str] = []
        answer: dict[str, Any] = {}
        out = process.stdout
        assert out is not None
        answered = job.get("answers") is True
        waiting: list[Connection] = []  # answered: the connections whose request awaits its answer, in order
        ended: list[str] = []
        try:
            while not ended:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    answer = {"error": "timeout"}
                    break
                if answered and STDIN.buffer.find(b"\n") >= 0:
                    self._replies(job["id"], waiting, connections, ended)
                    continue
                watched: list[Any] = [self.listener, *connections] + ([out] if out is not None else [])
                watched += [STDIN.fd] if answered and not STDIN.closed else []
                ready, _, _ = select.select(watched, [], [], remaining if out is not None else min(remaining, 0.02))
                for item in ready:
                    if item == STDIN.fd:
                        STDIN.fill()
                        self._replies(job["id"], waiting, connections, ended)
                    elif item is self.listener:
                        try:
                            sock, _ = self.listener.accept()
                        except OSError:
                            continue
                        opened += 1
                        if opened > (ANSWERED_CONNECTIONS if answered else MAX_CONNECTIONS):
                            sock.close()
                            continue
                        sock.setblocking(False)
                        connections.append(Connection(sock, answered=answered))
                    elif item is out:
                        chunk = os.read(out.fileno(), 65536)
                        if not chunk:
                            out = None
                        else:
                            output += chunk
                            del output[: max(0, len(output) - 4 * OUTPUT_TAIL)]
                    elif item in connections:  # (not one an answer just closed)
                        try:
                            message = item.readable()
                        except (Refused, OSError) as exc:
                            refusals.append(str(exc))
                            item.close()
                            connections.remove(item)
                            continue
                        if message is not None:
                            requests.append(message)
                            if answered:
                                _send({"id": job["id"], "sent": base64.b64encode(message).decode("ascii")})
                                waiting.append(item)
                if requests and not job.get("wait_exit") and not answered:
                    break
                if out is None:
                    _reap(process, os.WNOHANG)
                    if process.returncode is not None:
                        break
        finally:
            cpu = _kill_all(process, self.reaper, self.scoped)
            process.stdout.close()
            for connection in connections:
                connection.close()
        tail = _summary(output.decode("utf-8", errors="replace"))
        if answered:
            return self._answered(requests, answer, ended, process.returncode, tail, cpu)
        if requests:
            return {"wire": base64.b64encode(requests[0]).decode("ascii"), "requests": len(requests), "cpu_s": cpu}
        if answer:
            return {**answer, "wire": "", "requests": 0, "detail": tail, "cpu_s": cpu}
        code = process.returncode
        if code == 0:
            detail = refusals[0] if refusals else "the program ended without issuing a request"
            error = "bad_capture" if refusals else "no_request"
            return {"error": error, "detail": detail, "wire": "", "requests": 0, "cpu_s": cpu}
        detail = tail or (f"killed by signal {-code}" if code < 0 else f"exit status {code}")
        if refusals:
            detail = f"recorder: {refusals[0]}; {detail}"
        return {"error": "runtime_error", "detail": detail, "exit": code, "wire": "", "requests": 0, "cpu_s": cpu}


    @staticmethod
    def _replies(job_id: Any, waiting: list[Connection], connections: list[Connection], ended: list[str]) -> None:
        """Takes the supervisor's lines for the job: each answer goes to the oldest waiting connection."""
        while (line := STDIN.pending()) is not None:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if not isinstance(message, dict) or message.get("id") != job_id:
                continue
            if isinstance(message.get("end"), str):
                ended.append(message["end"])
            elif isinstance(message.get("reply"), str) and waiting:
                connection = waiting.pop(0)
                try:
                    connection.answer(base64.b64decode(message["reply"]))
                except OSError:
                    pass
                connection.close()
                if connection in connections:
                    connections.remove(connection)

    @staticmethod
    def _answered(requests: list[bytes], answer: dict[str, Any], ended: list[str], code: int | None, tail: str,
                  cpu: float) -> dict[str, Any]:
        """An answered job's answer: every request it sent, and whether the program ran to a clean end."""
        wire = base64.b64encode(b"".join(requests)).decode("ascii")
        if ended:
            return {"error": "runtime_error", "detail": ended[0], "wire": wire, "requests": len(requests), "cpu_s": cpu}
        if answer:
            return {**answer, "wire": wire, "requests": len(requests), "detail": tail, "cpu_s": cpu}
        if code != 0:
            detail = tail or (f"killed by signal {-code}" if code is not None and code < 0 else f"exit status {code}")
            return {"error": "runtime_error", "detail": detail, "exit": code, "wire": wire, "requests": len(requests),
                    "cpu_s": cpu}
        if not requests:
            return {"error": "no_request", "detail": "the program ended without issuing a request", "wire": "",
                    "requests": 0, "cpu_s": cpu}
        return {"wire": wire, "requests": len(requests), "cpu_s": cpu}


def main() -> None:
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    config = {**json.loads(STDIN.readline() or b"{}"), "reaper": True}
    worker = Worker(config)
    _send({"ready": True, "port": worker.port, "pid": os.getpid()})
    while (line := STDIN.readline()) is not None:
        if not line.strip():
            continue
        job = json.loads(line)
        if "reply" in job or "end" in job:  # an answer for a job that has already ended
            continue
        try:
            answer = worker.job(job)
        except Exception as exc:  # noqa: BLE001 - the worker must answer every job
            answer = {"error": "runtime_error", "detail": f"the JVM could not be run: {type(exc).__name__}: {exc}",
                      "wire": "", "requests": 0}
        _send({"id": job["id"], **answer})


if __name__ == "__main__":
    main()
