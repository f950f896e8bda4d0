"""``ProgramPool``: run one executable per sample, each in its own sandboxed process, capturing what it sends.

For languages whose programs are executables (compiled Go, a JVM started per sample): the adapter
builds its programs however it likes, then hands the pool one argv per sample::

    from wapii_core.sandbox.programs import ProgramPool
    pool = ProgramPool("go", read_paths=[bin_dir], run_paths=[bin_dir], timeout=2.0,
                       env={"GOMAXPROCS": "2"}, memory=2 * GiB)
    results = pool.run([[str(bin_dir / "prog"), "17"], ...])   # list[ProgramResult], in order
    requests = parse_requests(results[0].wire)                   # wire_capture's WireRequest records
    pool.close()

API:

- ``ProgramPool(name, read_paths, run_paths=None, *, workers=None, timeout=2.0, env=None, memory=1 GiB,
  max_output=64 KiB, processes=None, cpu_seconds=None)``: ``read_paths`` are what programs may read (besides the
  system's files: ``/usr``, ``/lib``, ...), ``run_paths`` the files or directories whose files they
  may execute (default: ``read_paths``; nothing else can be executed: no shell, no ``os/exec`` of a
  system tool; a dynamically linked executable, a JVM's ``java`` for instance, needs its dynamic
  loader listed too, e.g. ``/lib64/ld-linux-x86-64.so.2``: the kernel executes it, and it can then
  load any file the program may read, so list it only for such executables); ``env`` is added to
  the clean environment (``PATH``, ``HOME=/tmp``, ``LANG``, ``TZ``); ``memory`` is each program's
  address-space limit; ``cpu_seconds`` its ``RLIMIT_CPU`` (default: twice the timeout, plus one); ``processes`` its ``RLIMIT_NPROC`` (None:
  the worker's budget alone); ``max_output`` the bytes of standard output and error kept.
- :meth:`ProgramPool.run` ``(argvs: list[list[str]]) -> list[ProgramResult]``: one result per argv, in
  order; each argv's first item is an absolute path. Never raises for what a program does.
- :meth:`ProgramPool.start` (workers in the background), :meth:`ProgramPool.close`,
  :meth:`ProgramPool.isolation` (the layers, for ``wapii doctor`` and the missing-layer warning).
- :class:`ProgramResult`: ``ok`` (exited with code 0 in time), ``exit_code``, ``error`` (None,
  ``"exited"`` (a non-zero exit code), ``"timeout"``, ``"worker_died"`` (killed by a signal, or the
  worker failed), ``"blocked: <what>"`` (a resource limit) or ``"runtime_error"`` (it could not be
  started, or sent more than the channel holds)), ``detail`` (one line), ``wire`` (every byte the
  program wrote to descriptor 3, whatever the outcome), ``output`` (its first ``max_output`` bytes of
  standard output and error) and ``elapsed_s``.

The capture channel: descriptor 3 of every program is the write end of a pipe that only the worker
reads; a program's HTTP library (or the program itself: it has then *sent* that request) writes its
requests there as HTTP/1.1 messages in absolute form (:mod:`.wire_capture`), and wapii parses them
with :func:`.wire_capture.parse_requests`, outside the program's process.

Layers (:mod:`.programworker` runs the programs): each worker runs under :func:`.launch.plan`
(bubblewrap: no network but a loopback, its own PID namespace, a read-only view of ``read_paths``
and the system; or, without it, Landlock, the privilege drop, rlimits, a user namespace or pids
cgroup budget); each program then runs in a process of its own, in a session of its own, under its
own rlimits (address space, no file writes, CPU time, open files) and its own Landlock domain (reads
beneath ``read_paths`` and the system's files, executes only ``run_paths``, writes nothing, no TCP,
no signals outside its domain), with a wall-clock timeout; after each job the worker, subreaper of
everything below it, kills and reaps every process the program left.
"""

from __future__ import annotations

import base64
import binascii
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wapii_core.base.text import MAX_DETAIL
from wapii_core.sandbox import bwrap, landlock
from wapii_core.sandbox.launch import Plan, Program, plan
from wapii_core.sandbox.layers import Isolation, Layer, enforce
from wapii_core.sandbox.limits import GiB, Limits, clean_env
from wapii_core.sandbox.supervisor import ELAPSED, Supervisor

ERRORS = ("exited", "timeout", "worker_died", "runtime_error")
MAX_OUTPUT = 64 << 10


@dataclass(frozen=True)
class ProgramResult:
    """What running one program gave (see the module's docstring)."""

    ok: bool
    exit_code: int | None = None
    error: str | None = None
    detail: str | None = None
    wire: bytes = b""
    output: bytes = b""
    elapsed_s: float | None = None
    exchanges: list[Any] | None = None
    """The program's requests and its responder's answers, in order, when :meth:`ProgramPool.run` was
    given a responder for it; else None."""

    def output_tail(self, limit: int = 300) -> str:
        """The last non-empty line of the program's output (a panic's message, a compiler's error), cut to ``limit``."""
        lines = [line for line in self.output.decode("utf-8", "replace").splitlines() if line.strip()]
        return lines[-1][:limit] if lines else ""


def _bad(detail: str) -> ProgramResult:
    return ProgramResult(ok=False, error="runtime_error", detail=f"bad_capture: {detail}")


def checked_result(answer: Any) -> ProgramResult:
    """The :class:`ProgramResult` of one worker answer, every field checked."""
    if not isinstance(answer, dict):
        return _bad("the worker's answer is not an object")
    elapsed = answer.get(ELAPSED)
    ok, error, detail, code = answer.get("ok"), answer.get("error"), answer.get("detail"), answer.get("exit_code")
    if not isinstance(ok, bool) and ok is not None:
        return _bad("'ok' is not a boolean")
    if error is not None and not (isinstance(error, str) and (error in ERRORS or error.startswith("blocked: "))):
        return _bad("'error' is not an error kind")
    if detail is not None and not isinstance(detail, str):
        return _bad("'detail' is not a string")
    if code is not None and not isinstance(code, int):
        return _bad("'exit_code' is not an integer")
    if bool(ok) == (error is not None):
        return _bad("'ok' and 'error' disagree")
    decoded = []
    for key in ("wire", "output"):
        value = answer.get(key, "")
        try:
            decoded.append(base64.b64decode(value, validate=True) if isinstance(value, str) else None)
        except (ValueError, binascii.Error):
            decoded.append(None)
        if decoded[-1] is None:
            return _bad(f"'{key}' is not base64")
    return ProgramResult(ok=bool(ok), exit_code=code, error=error, detail=detail[:MAX_DETAIL] if detail else detail,
                         wire=decoded[0], output=decoded[1],
                         elapsed_s=elapsed if isinstance(elapsed, float) else None)


class ProgramPool:
    """Runs one executable per job, each in its own sandboxed process (see the module's docstring)."""

    def __init__(self, name: str, read_paths: list[Path], run_paths: list[Path] | None = None, *,
                 workers: int | None = None, timeout: float = 2.0, env: dict[str, str] | None = None,
                 memory: int = 1 * GiB, max_output: int = MAX_OUTPUT, processes: int | None = None,
                 cpu_seconds: int | None = None) -> None:
        self.name = name
        self.read_paths = [Path(p).resolve() for p in read_paths]
        self.run_paths = [Path(p).resolve() for p in (run_paths if run_paths is not None else read_paths)]
        self.timeout = timeout
        self.env = clean_env(env)
        self._landlock_problem = landlock.unavailable()
        import resource

        child = {resource.RLIMIT_AS: memory, resource.RLIMIT_FSIZE: 0, resource.RLIMIT_CORE: 0,
                 resource.RLIMIT_NOFILE: 64, resource.RLIMIT_CPU: cpu_seconds or max(1, int(timeout * 2) + 1)}
        if processes is not None:
            child[resource.RLIMIT_NPROC] = processes
        self._init = {
            "env": self.env,
            "max_output": max_output,
            "child_limits": {str(kind): value for kind, value in child.items()},
            "landlock": None if self._landlock_problem else vars(self.program_policy()),
        }
        self._plan: Plan | None = None
        self._plan_lock = threading.Lock()
        self._supervisor = Supervisor(f"{name}-programs", self._start_plan, size=workers, timeout=timeout,
                                      init=self._init)

    def program_policy(self) -> landlock.Policy:
        """What a program's process may reach: read ``read_paths``, the system's files and the usual
        devices, execute ``run_paths`` only, write ``/dev/null`` only."""
        return landlock.Policy.of([*self.read_paths, *bwrap.SYSTEM_PATHS, *landlock.DEVICES], write=["/dev/null"],
                                  run=self.run_paths)

    def program(self) -> Program:
        """What one worker runs, before the sandbox's layers wrap it."""
        from wapii_core.sandbox.code_view import code_view

        root = str(Path(__file__).resolve().parents[2])
        view = code_view(["wapii_core"])  # the worker's code, without the judge's data
        bootstrap = (f"import sys; sys.path.insert(0, {root!r}); "
                     "from wapii_core.sandbox.programworker import main; main()")
        argv = [sys.executable, "-I", "-B", "-c", bootstrap]
        venv = [Path(sys.executable), Path(sys.prefix) / "pyvenv.cfg"]
        return Program(argv=argv, read_paths=[*venv, *view.roots, *self.read_paths], env=clean_env(),
                       limits=Limits(address_space=None), hidden=list(view.hidden), list_paths=list(view.import_dirs))

    def _start_plan(self) -> Plan:
        with self._plan_lock:
            if self._plan is None:
                self._plan = plan(self.program())
                enforce(self.isolation())
            return self._plan

    def isolation(self) -> Isolation:
        """The layers protecting this pool's programs."""
        started = self._plan or plan(self.program())
        confined = self._landlock_problem is None
        layers = [
            *started.layers,
            Layer("landlock (programs)", confined,
                  f"{landlock.covers(landlock.abi())}; each program reads only its own files and the system's, "
                  "executes only its own executable and writes no file" if confined else str(self._landlock_problem),
                  "programs can read the worker's user's files, run other executables and (without bubblewrap) "
                  "reach TCP services"),
            Layer("process per program", True, "every program runs in a process and session of its own, under its "
                  "own rlimits, killed with everything it started once it ends or its time is up; requests are "
                  "judged from the bytes it sent down a pipe"),
        ]
        return Isolation(self.name, layers)

    def start(self) -> None:
        """Starts the workers in the background (optional: :meth:`run` starts what is missing)."""
        self._supervisor.start()

    def run(self, argvs: list[list[str]], responders: list[Any] | None = None) -> list[ProgramResult]:
        """One :class:`ProgramResult` per argv, in order. ``responders`` (one per argv, or None): who
        answers each program's requests (it reads them from descriptor 4, named by ``$WAPII_REPLIES``);
        an answered program's result holds its exchanges."""
        from dataclasses import replace

        from wapii_core.sandbox.dialogue import dialogues

        talks = dialogues(responders, len(argvs))
        answers = self._supervisor.run([{"argv": [str(part) for part in argv]} for argv in argvs], talks)
        return [replace(checked_result(answer), exchanges=talk.exchanges if talk is not None else None)
                for answer, talk in zip(answers, talks)]

    def close(self) -> None:
        """Stops the workers (they start again on the next :meth:`run`)."""
        self._supervisor.close()

    def __enter__(self) -> ProgramPool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
