"""Running Java programs in the sandbox: :class:`JavaRunner`.

Each batch of extracted calls is compiled by one ``javac`` call (:mod:`.compile`), then every
program runs in a JVM of its own on the sandboxed workers (:mod:`.worker`, one per CPU, on the core's
:class:`~wapii_core.sandbox.supervisor.Supervisor`), which record the first request its library
sends (:mod:`.recorder`). Every program's ``main`` opens with ``wapii.Launch.install()``
(:mod:`.support`): the program's TLS goes through wapii's pass-through provider, so an ``https://`` request reaches the recorder, in the
proxy's tunnel, as the HTTP the library wrote, with no key exchange in a cold JVM; and from a class
archive of the library's warm-up (an ahead-of-time cache on Java 25, AppCDS before), dumped once per
runtime, library and flags into the cache.
"""

from __future__ import annotations

import base64
import itertools
import shutil
import socket
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wapii_core.jvm.compile import Javac, compile_units
from wapii_core.jvm.javasource import program_source
from wapii_core.jvm.support import LAUNCHER, WARMUP_CLASS, JavaLibrary, archive_flags, class_archive, release, support_jar
from wapii_core.jvm.toolchain import Jdk, find_jdk, find_runtime

DEFAULT_TIMEOUT_S = 10.0
"""Seconds of wall time per program (a JVM's start and all, on a busy two-core machine)."""
JVM_FLAGS = ("-XX:+UseSerialGC", "-Xmx192m", "-Xss512k", "-XX:ReservedCodeCacheSize=32m", "-XX:CompressedClassSpaceSize=64m",
             "-XX:MaxMetaspaceSize=128m", "-XX:-UsePerfData", "-XX:-UseContainerSupport")
"""Small heap, no perf-data file: a short-lived JVM's fastest start (and :func:`jvm_flags`)."""
JVM_ADDRESS_SPACE = 3 << 30
"""RLIMIT_AS of one JVM: its heap, code cache, class space and thread stacks reserve address space."""


@dataclass
class JavaResult:
    """One program's outcome: ``wire`` (the first request, serialised) or an ``error`` with ``detail``."""

    wire: bytes = b""
    requests: int = 0
    error: str | None = None
    detail: str | None = None
    elapsed_s: float | None = None
    cpu_s: float = 0.0  # CPU seconds of its JVM (all its threads)
    exchanges: list[Any] | None = None  # its requests and its responder's answers, when it was answered


def jvm_flags(runtime: Jdk) -> tuple[str, ...]:
    """Every program JVM's flags on ``runtime``. From an ahead-of-time cache (Java 25 on), the
    interpreter alone: the classes come loaded and linked and a program runs for a few dozen
    milliseconds, so a compiler thread's work never pays back (CPU per HttpClient program measured
    0.129 s with the client compiler, 0.108 s without). Before 25 the client compiler, one thread:
    there the interpreter alone costs more (0.158 -> 0.205 s)."""
    from wapii_core.jvm.support import AOT_FEATURE

    if runtime.feature >= AOT_FEATURE:
        return (*JVM_FLAGS, "-Xint")
    return (*JVM_FLAGS, "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1")


def _world_readable(path: Path) -> None:
    path.chmod(0o755 if path.is_dir() else 0o644)


class JavaRunner:
    """Compiles and runs Java programs for one library; thread-safe, workers start on first use."""

    def __init__(self, library: JavaLibrary, workers: int | None = None, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        self.library = library
        self.timeout = timeout
        self.workers = workers
        self.jdk: Jdk = find_jdk()
        self.runtime: Jdk = find_runtime()
        self._lock = threading.Lock()
        self._batch = itertools.count()
        self._scratch: Path | None = None
        self._supervisor: Any = None
        self._plan: Any = None
        self._jar: Path | None = None
        self._javac: Javac | None = None
        self._archive: Path | None = None
        self._free_ports: list[int] | None = None
        self._enforced = False
        self.cpu_s = {"jvm": 0.0, "javac": 0.0}
        """CPU seconds spent so far: every program's JVM, and ``javac`` (what benchmarks report)."""

    # -- per-runner state -------------------------------------------------------------------------
    def prepare(self) -> None:
        """Makes the run's scratch directory and hosts file, and the support jar and class archive
        when the cache lacks them (idempotent)."""
        if self._scratch is not None:
            return
        self._jar = support_jar(self.jdk, self.runtime, self.library)
        scratch = Path(tempfile.mkdtemp(prefix="wapii-jvm-"))
        (scratch / "hosts").write_text("# no host resolves: every request goes through the recorder\n")
        (scratch / "jobs").mkdir()
        # javac reads the JDK and the class path's jars, and writes only this runner's batches
        self._javac = Javac(self.jdk, self._jar, read=[jar.parent for jar in self.library.jars], write=[scratch / "jobs"])
        for path in (scratch, scratch / "hosts", scratch / "jobs"):
            _world_readable(path)
        self._scratch = scratch
        self._archive = class_archive(self.runtime, self._jar, self.library, jvm_flags(self.runtime), self._train)

    def java_prefix(self) -> list[str]:
        """The JVM's command line up to its proxy port, class path and main class."""
        assert self._scratch is not None
        return [str(self.runtime.java), *jvm_flags(self.runtime), f"-Djdk.net.hosts.file={self._scratch / 'hosts'}",
                "-Dhttps.proxyHost=127.0.0.1", "-Dhttp.proxyHost=127.0.0.1", "-Dhttp.nonProxyHosts="]

    def base_classpath(self) -> list[Path]:
        """The support jar, then the library's jars."""
        assert self._jar is not None
        return [self._jar, *self.library.jars]

    def _train(self, flags: list[str], classpath: str) -> None:
        """Runs the library's warm-up to its end with ``flags`` (the class archive's training run),
        its request answered by a recorder."""
        from wapii_core.jvm.worker import Worker

        worker = Worker({"java": [*self.java_prefix(), *flags], "read": [], "run": [], "limits": {}, "landlock": False})
        try:
            worker.job({"timeout_ms": 120_000, "dir": str(self._scratch), "main": [LAUNCHER, WARMUP_CLASS],
                        "classpath": classpath, "wait_exit": True})
        finally:
            worker.listener.close()

    # -- the sandbox ------------------------------------------------------------------------------
    def _jvm_read_paths(self) -> list[Path]:
        """What every JVM reads besides the system's files and its own program's directory: the
        runtime, the support jar, the class archive, the library's jars and the empty hosts file
        (not the other programs' directories beside the hosts file)."""
        assert self._scratch is not None and self._jar is not None
        archive = [self._archive.parent] if self._archive else []
        return [*self.runtime.read_paths, self._jar.parent, *archive, self._scratch / "hosts",
                *[jar.parent for jar in self.library.jars]]

    def _read_paths(self) -> list[Path]:
        assert self._scratch is not None
        return [*self._jvm_read_paths(), self._scratch]

    def _program(self) -> Any:
        from wapii_core.sandbox import GiB, Limits, Program, clean_env
        from wapii_core.sandbox.code_view import code_view

        view = code_view(["wapii_core", "h11"])
        root = str(Path(__file__).resolve().parents[2])
        bootstrap = f"import sys; sys.path.insert(0, {root!r}); from wapii_core.jvm.worker import main; main()"
        argv = [sys.executable, "-I", "-B", "-c", bootstrap]
        venv = [Path(sys.executable), Path(sys.prefix) / "pyvenv.cfg"]
        return Program(argv=argv, read_paths=[*venv, *view.roots, *self._read_paths()], env=clean_env(),
                       limits=Limits(address_space=None, file_size=1 << 20, open_files=512),
                       hidden=list(view.hidden), list_paths=list(view.import_dirs), ports=self._ports())

    def _ports(self) -> list[int]:
        """Loopback ports free now, one per worker and a few to spare: a worker records on the first it
        can bind (in bubblewrap's own network namespace every port is free)."""
        if self._free_ports is None:
            from wapii_core.sandbox import default_worker_count

            listeners = [socket.create_server(("127.0.0.1", 0)) for _ in range((self.workers or default_worker_count()) + 2)]
            self._free_ports = [listener.getsockname()[1] for listener in listeners]
            for listener in listeners:
                listener.close()
        return self._free_ports

    def _worker_init(self) -> dict[str, Any]:
        import resource

        from wapii_core.sandbox import bwrap, landlock

        from wapii_core.sandbox import plan

        self._plan = self._plan or plan(self._program())
        own_pid_namespace = any(layer.name == "bubblewrap" and layer.active for layer in self._plan.layers)
        scoped = own_pid_namespace or (self._plan.landlock is not None and landlock.abi() >= 6)
        return {
            "java": [*self.java_prefix(), *archive_flags(self.runtime, self._archive)],
            "read": [str(p) for p in [*self._jvm_read_paths(), *bwrap.SYSTEM_PATHS, *landlock.DEVICES]],
            "run": [str(p) for p in self.runtime.launcher],
            "limits": {str(resource.RLIMIT_AS): JVM_ADDRESS_SPACE, str(resource.RLIMIT_FSIZE): 0,
                       str(resource.RLIMIT_NOFILE): 256, str(resource.RLIMIT_CORE): 0},
            "landlock": landlock.unavailable() is None,
            "classpath": [str(p) for p in self.base_classpath()],
            "ports": self._ports(),
            "scoped": scoped,
        }

    def _start_plan(self) -> Any:
        from wapii_core.sandbox import enforce, plan

        if self._plan is None:
            self._plan = plan(self._program())
        if not self._enforced:
            enforce(self.isolation())
            self._enforced = True
        return self._plan

    def isolation(self) -> Any:
        from wapii_core.sandbox import Isolation, Layer, landlock, plan

        self.prepare()
        started = self._plan or plan(self._program())
        confined = landlock.unavailable() is None
        return Isolation("java", [
            *started.layers,
            Layer("landlock (programs)", confined,
                  f"{landlock.covers(landlock.abi())}; each JVM reads only the system's files, the Java runtime, "
                  "wapii's support jar, the class archive and its own program, runs only the java launcher, writes no "
                  "file and connects only to the recorder's port" if confined else str(landlock.unavailable()),
                  "a JVM reads what the worker reads (other programs' classes), may run other programs and "
                  "connect to any local TCP port the worker's layers allow"),
            Layer("JVM per program", True, "every program runs in a JVM of its own, killed with everything it started "
                  "once it has sent its first request; requests are judged from the bytes the library wrote to a "
                  "recorder outside the JVM"),
        ])

    def _ensure(self) -> Any:
        with self._lock:
            self.prepare()
            if self._supervisor is None:
                from wapii_core.sandbox import Supervisor

                self._supervisor = Supervisor("java", self._start_plan, size=self.workers, timeout=self.timeout,
                                              grace=2.0, init=self._worker_init())
            return self._supervisor

    def start(self) -> None:
        self._ensure().start()

    def run(self, calls: list[str], responders: list[Any] | None = None) -> list[JavaResult]:
        """One :class:`JavaResult` per extracted call, in order; ``responders`` (one per call, or None):
        who answers each program's requests (the JVM runs to its end; its result holds the exchanges)."""
        if not calls:
            return []
        supervisor = self._ensure()
        assert self._scratch is not None
        batch = self._scratch / "jobs" / f"b{next(self._batch)}"
        src, out = batch / "src", batch / "classes"
        for path in (batch, src, out):
            path.mkdir(parents=True, exist_ok=True)
        sources = {f"p{i}": program_source(call, f"p{i}") for i, call in enumerate(calls)}
        assert self._javac is not None
        before = self._javac.cpu_seconds()
        failed = compile_units(self._javac, sources, src, out, self.base_classpath(), release(self.jdk, self.runtime))
        self.cpu_s["javac"] += self._javac.cpu_seconds() - before
        results: list[JavaResult | None] = [None] * len(calls)
        jobs, where = [], []
        for i, call in enumerate(calls):
            package = f"p{i}"
            if package in failed:
                results[i] = JavaResult(error="runtime_error", detail=failed[package])
                continue
            directory = batch / "run" / package
            directory.mkdir(parents=True)
            shutil.move(str(out / package), str(directory / package))
            for path in [directory, *directory.rglob("*")]:
                _world_readable(path)
            classpath = ":".join([*map(str, self.base_classpath()), str(directory)])
            jobs.append({"dir": str(directory), "main": [f"{package}.Main"], "classpath": classpath})
            where.append(i)
        from wapii_core.sandbox.dialogue import dialogues

        talks = dialogues([responders[i] for i in where] if responders is not None else None, len(jobs))
        for i, answer, talk in zip(where, supervisor.run(jobs, talks) if jobs else [], talks):
            results[i] = _result(answer)
            results[i].exchanges = talk.exchanges if talk is not None else None
            self.cpu_s["jvm"] += results[i].cpu_s
        shutil.rmtree(batch, ignore_errors=True)
        return [r if r is not None else JavaResult(error="runtime_error", detail="not run") for r in results]

    def close(self) -> None:
        with self._lock:
            if self._supervisor is not None:
                self._supervisor.close()
                self._supervisor = None
            self._plan = None
            if self._javac is not None:
                self._javac.close()
            if self._scratch is not None:
                shutil.rmtree(self._scratch, ignore_errors=True)
                self._scratch = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001
            pass


def _result(answer: dict[str, Any]) -> JavaResult:
    from wapii_core.sandbox.supervisor import ELAPSED

    elapsed = answer.get(ELAPSED)
    wire = answer.get("wire") or ""
    try:
        data = base64.b64decode(wire, validate=True) if isinstance(wire, str) else b""
    except ValueError:
        return JavaResult(error="runtime_error", detail="bad_capture: the worker's answer is malformed", elapsed_s=elapsed)
    error = answer.get("error")
    if error is None and not data:
        error = "no_request"
    detail = answer.get("detail")
    if error == "bad_capture":
        error, detail = "runtime_error", f"bad_capture: {detail}"
    cpu = answer.get("cpu_s")
    return JavaResult(wire=data, requests=int(answer.get("requests") or 0), error=error,
                      detail=str(detail)[:500] if detail else None, elapsed_s=elapsed,
                      cpu_s=float(cpu) if isinstance(cpu, (int, float)) else 0.0)
