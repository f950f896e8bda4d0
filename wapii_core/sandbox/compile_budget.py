"""Compiling generated code as untrusted work: each compiler run under a budget, and the search that
finds the programs that make a batch's compilation fail.

A compiler reads the program a model wrote, and a few hundred bytes of source can make it use
gigabytes of memory or run for minutes (constant folding, error recovery, a superlinear pass). So
every compiler process (Go's ``go`` command and the ``compile``/``link`` processes it starts, the Go
preparation tool, the javac JVM) runs through :func:`run_compiler`: in a session of its own, under
the rlimits of a :class:`CompileBudget` (``RLIMIT_DATA``: the memory it may commit, ``RLIMIT_CPU``,
``RLIMIT_FSIZE``, ``RLIMIT_NPROC`` headroom, no core dumps), with a wall-clock limit of a base plus a
share per program it compiles; past it the session is killed. Running out of any of these is a
:class:`CompilerRun` with ``limit`` set, never an exception.

A compiler also runs inside a file view of its own (:func:`confined`): it reads
only the toolchain and the files its run needs, writes only its batch's work directories (and the
build cache it shares), and reaches no network: bubblewrap where it works here (its own mount,
network, PID and IPC namespaces, as wapii's own user: what it writes stays wapii's), else Landlock
(read and run beneath the view, full access beneath its own directories, no TCP, no signals out).

:func:`isolate_failures` is the search: a batch whose compilation fails without naming the programs at
fault (a time-out, an exhausted heap, a link failure) is split in halves, each compiled again,
until the programs that cause the failure are alone; only they lose their verdict. A failure that
names its programs removes them and compiles the rest again. For ``n`` programs, one culprit costs
at most ``2 log2(n)`` further compiler runs, each within its own (smaller) share of time.
"""

from __future__ import annotations

import math
import os
import resource
import signal
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Hashable, Sequence, TypeVar

from wapii_core.sandbox.limits import MiB, Limits

MEMORY_ENV = "WAPII_COMPILE_MEMORY_MB"
BASE_ENV = "WAPII_COMPILE_BASE_S"
PER_PROGRAM_ENV = "WAPII_COMPILE_PER_PROGRAM_S"
DEFAULT_MEMORY = 1024 * MiB
"""Memory one compiler process may commit (``RLIMIT_DATA``): a batch of 64 programs needs about a
tenth of it; a constant-folding bomb is stopped at it."""
DEFAULT_BASE_S = 30.0
DEFAULT_PER_PROGRAM_S = 0.5
COMPILER_PROCESSES = 2
"""How many compiler processes a compiling tool runs at once (``go build -p``): with the tool itself,
at most ``COMPILER_PROCESSES + 1`` processes hold :attr:`CompileBudget.memory` each."""
FILE_SIZE = 256 * MiB
"""The largest file a compiler may write (object files, the build cache's entries, binaries)."""


@dataclass(frozen=True)
class CompileBudget:
    """What one compiler run may use: ``memory`` bytes per process (``RLIMIT_DATA``) and
    ``base_s + per_program_s * programs`` seconds, of wall time and of CPU time per process."""

    memory: int = DEFAULT_MEMORY
    base_s: float = DEFAULT_BASE_S
    per_program_s: float = DEFAULT_PER_PROGRAM_S
    processes_headroom: int = 512

    @classmethod
    def from_env(cls) -> CompileBudget:
        """The defaults, each replaced by its environment variable when set (``$WAPII_COMPILE_MEMORY_MB``,
        ``$WAPII_COMPILE_BASE_S``, ``$WAPII_COMPILE_PER_PROGRAM_S``); a malformed value is a one-line error."""
        from wapii_core.base.errors import WapiiError

        def number(name: str, default: float) -> float:
            text = os.environ.get(name)
            if not text:
                return default
            try:
                value = float(text)
            except ValueError:
                value = -1.0
            if not value > 0 or not math.isfinite(value):
                raise WapiiError(f"${name} must be a positive number, not {text!r}")
            return value

        return cls(memory=int(number(MEMORY_ENV, DEFAULT_MEMORY / MiB) * MiB), base_s=number(BASE_ENV, DEFAULT_BASE_S),
                   per_program_s=number(PER_PROGRAM_ENV, DEFAULT_PER_PROGRAM_S))

    def seconds(self, programs: int) -> float:
        """The wall-clock share of a run that compiles ``programs`` programs."""
        return self.base_s + self.per_program_s * max(programs, 1)

    def limits(self, programs: int) -> dict[int, int]:
        """The rlimits of every process of such a run."""
        wanted = Limits(address_space=None, file_size=FILE_SIZE, open_files=4096,
                        processes_headroom=self.processes_headroom).resolved(os.getuid())
        wanted[resource.RLIMIT_DATA] = self.memory
        wanted[resource.RLIMIT_CPU] = math.ceil(self.seconds(programs))
        return wanted

    def describe(self) -> str:
        return (f"{self.memory // MiB} MiB of memory per compiler process, {self.base_s:g} s + "
                f"{self.per_program_s:g} s per program")


@dataclass(frozen=True)
class CompileView:
    """The files a compiler run may reach besides the system's (``/usr``, the libraries): ``read``
    (and run) beneath each of ``read``, read and write beneath each of ``write``; nothing else, no
    network. ``cwd`` must lie in it; paths that do not exist are left out."""

    read: tuple[Path, ...] = ()
    write: tuple[Path, ...] = ()

    @classmethod
    def of(cls, read: Sequence[Path | str] = (), write: Sequence[Path | str] = ()) -> CompileView:
        return cls(tuple(dict.fromkeys(Path(os.path.abspath(p)) for p in read)),
                   tuple(dict.fromkeys(Path(os.path.abspath(p)) for p in write)))


def confinement() -> str:
    """How compilers are confined here: ``"bubblewrap"``, ``"landlock"``, or ``"none"`` (neither works;
    the compiler runs under its rlimits alone)."""
    from wapii_core.sandbox import bwrap, landlock
    from wapii_core.sandbox.users import running_as_root

    if bwrap.probe(running_as_root(), None) is None:
        return "bubblewrap"
    return "landlock" if landlock.unavailable() is None else "none"


def confined(argv: Sequence[str], view: CompileView, env: dict[str, str], cwd: Path) -> list[str]:
    """The command line that runs ``argv`` (absolute executable first) inside ``view``: under
    bubblewrap (the view read-only, its ``write`` directories bound writable, ``env`` set inside,
    working directory ``cwd``), or confined by Landlock (the process keeps ``env`` and ``cwd``)."""
    from wapii_core.sandbox import bwrap, landlock
    from wapii_core.sandbox.users import running_as_root

    how = confinement()
    if how == "bubblewrap":
        binary = bwrap.bwrap_binary()
        assert binary is not None
        setenv = [arg for name, value in sorted(env.items()) for arg in ("--setenv", name, value)]
        writable = [arg for path in view.write if path.exists() for arg in ("--bind", str(path), str(path))]
        return [binary, *bwrap.namespace_args(running_as_root(), False), "--clearenv", *setenv,
                *bwrap.mount_args([*view.read, *view.write]), *writable, "--chdir", str(cwd), "--", *argv]
    if how == "landlock":
        policy = landlock.Policy.of([*view.read, *bwrap.SYSTEM_PATHS, *landlock.DEVICES], write=["/dev/null"],
                                    execute=True, own=view.write)
        return [*landlock.exec_prefix(policy), *argv]
    return list(argv)


@dataclass
class CompilerRun:
    """What a compiler run gave: its exit status and output, and ``limit``: which budget it ran out
    of (``None`` when it ended by itself)."""

    returncode: int
    stdout: bytes
    stderr: bytes
    limit: str | None = None


_MEMORY_WORDS = (b"out of memory", b"cannot allocate memory", b"MemoryError", b"StackOverflowError",
                 b"out of resources", b"SIGSEGV")
"""What a compiler prints when it runs out of memory (an allocation the runtime cannot map may also
end a Go process in SIGSEGV)."""


def run_compiler(argv: Sequence[str], *, cwd: Path, env: dict[str, str], budget: CompileBudget, programs: int,
                 stdin: bytes | None = None, read: Sequence[Path] | None = None, write: Sequence[Path] = ()) -> CompilerRun:
    """Runs ``argv`` (absolute executable first) under ``budget`` for ``programs`` programs; when
    ``read`` is given, inside the file view that reads beneath ``read`` and writes beneath ``write``
    (:func:`confined`). Never raises for what the compiler does (a time-out, a
    kill, exhausted memory: ``limit``)."""
    from wapii_core.sandbox.rlimit_exec import limits_prefix

    seconds = budget.seconds(programs)
    view = CompileView.of(read, write) if read is not None else None
    command = [*limits_prefix(budget.limits(programs)), *(confined(argv, view, env, cwd) if view else argv)]
    process = subprocess.Popen(command, cwd=cwd, env=env,
                               stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        stdout, stderr = process.communicate(stdin, timeout=seconds)
        timed_out = False
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_session(process.pid)
        stdout, stderr = process.communicate()
    _kill_session(process.pid)  # whatever it left running
    code = process.returncode
    limit = None
    if timed_out or code in (-signal.SIGXCPU, -signal.SIGKILL):
        limit = f"the compiler ran longer than its {seconds:g} s"
    elif code != 0 and any(word in stderr for word in _MEMORY_WORDS):
        limit = f"the compiler ran out of its {budget.memory // MiB} MiB of memory"
    return CompilerRun(code, stdout, stderr, limit)


def _kill_session(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


Unit = TypeVar("Unit", bound=Hashable)


@dataclass
class CompileAttempt:
    """One compiler run over a group of programs: ``blamed`` maps the programs the failure names to
    their error; ``unexplained`` is why the group failed without naming any (``None``: it did not)."""

    blamed: dict = field(default_factory=dict)
    unexplained: str | None = None


@dataclass
class Isolated:
    """What :func:`isolate_failures` found: each failed program's error, and how many compiler runs it took."""

    failed: dict
    attempts: int


def isolate_failures(units: Sequence[Unit], attempt: Callable[[list[Unit]], CompileAttempt], max_attempts: int | None = None) -> Isolated:
    """Compiles ``units`` with ``attempt`` (which keeps what succeeds), removing the programs a failure
    names and splitting a group whose failure names none, until each failure is a program's own.
    ``max_attempts`` (default ``3 * len(units) + 1``, more than the search can need) bounds the runs."""
    limit = max_attempts if max_attempts is not None else 3 * len(units) + 1
    failed: dict = {}
    queue: list[list[Unit]] = [list(units)] if units else []
    attempts = 0
    while queue:
        group = queue.pop(0)
        while group:
            if attempts >= limit:
                failed.update({unit: "compile_limit: the batch's compile budget ran out before this program was compiled"
                               for unit in group})
                break
            attempts += 1
            outcome = attempt(group)
            blamed = {unit: error for unit, error in outcome.blamed.items() if unit in group}
            if blamed:
                failed.update(blamed)
                group = [unit for unit in group if unit not in blamed]
                continue
            if outcome.unexplained is None:
                break
            if len(group) == 1:
                failed[group[0]] = outcome.unexplained
                break
            half = len(group) // 2
            queue += [group[:half], group[half:]]
            break
    return Isolated(failed, attempts)
