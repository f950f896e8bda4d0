"""Running Java programs in the sandbox: :class:`JavaRunner`.

Each batch of extracted calls is compiled by one ``javac`` call (:mod:`.compile`), then every
program runs in a JVM of its own on the sandboxed workers (:mod:`.worker`, one per CPU, on the core's
:class:`~wapii_core.sandbox.supervisor.Supervisor`), which record the first request its library
sends (:mod:`.recorder`). Per runner: a certificate authority (PyPI ``trustme``) whose certificate
is the JVMs' only trust anchor (a PKCS #12 trust store made by the JDK's ``keytool``), and whose
key never enters the sandbox: each program's directory gets a certificate for the hosts its source
names, issued here. JVMs start fast from an AppCDS archive of the library's classes, dumped once
per JDK, library and flags into the cache (:func:`cds_archive`).
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wapii_core.base.paths import cache_dir
from wapii_core.jvm.compile import compile_units
from wapii_core.jvm.javasource import program_source
from wapii_core.jvm.toolchain import Jdk, find_jdk

DEFAULT_TIMEOUT_S = 10.0
"""Seconds of wall time per program (a JVM's start, TLS and all, on a busy two-core machine)."""
JVM_FLAGS = ("-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:+UseSerialGC", "-Xmx192m", "-Xss512k", "-XX:ReservedCodeCacheSize=32m",
             "-XX:CompressedClassSpaceSize=64m", "-XX:MaxMetaspaceSize=128m", "-XX:-UsePerfData",
             "-XX:-UseContainerSupport", "-Xshare:auto", "-Djava.io.tmpdir=/nonexistent")
"""Small heap, the client compiler only, no perf-data file: a short-lived JVM's fastest start."""
JVM_ADDRESS_SPACE = 3 << 30
"""RLIMIT_AS of one JVM: its heap, code cache, class space and thread stacks reserve address space."""
_HOST = re.compile(r"(?<![A-Za-z0-9.-])((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63})(?![A-Za-z0-9-])")
TRUST_PASSWORD = "wapii-trust"


@dataclass(frozen=True)
class JavaLibrary:
    """One Java HTTP library as the runner needs it: the jars on the programs' class path and a
    trusted warm-up program (class ``WapiiWarmup``) that exercises it for the class-data archive."""

    name: str
    jars: tuple[Path, ...] = ()
    warmup: str = ""


@dataclass
class JavaResult:
    """One program's outcome: ``wire`` (the first request, serialised) or an ``error`` with ``detail``."""

    wire: bytes = b""
    requests: int = 0
    error: str | None = None
    detail: str | None = None
    elapsed_s: float | None = None
    cpu_s: float = 0.0  # CPU seconds of its JVM (all its threads)


def hosts_in(source: str) -> list[str]:
    """The host names the string literals of a program's source name (a certificate is issued for
    them; the whole source where it does not tokenize), ``localhost`` always."""
    from wapii_core.jvm.javasource import tokens

    try:
        text = "\n".join(token.text for token in tokens(source) if token.kind == "string")
    except ValueError:
        text = source
    found = dict.fromkeys(m.group(1).lower().rstrip(".") for m in _HOST.finditer(text))
    names = [name for name in found if not name.replace(".", "").isdigit()][:64]
    return names + ["localhost"]


def _world_readable(path: Path) -> None:
    path.chmod(0o755 if path.is_dir() else 0o644)


class JavaRunner:
    """Compiles and runs Java programs for one library; thread-safe, workers start on first use."""

    def __init__(self, library: JavaLibrary, workers: int | None = None, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        self.library = library
        self.timeout = timeout
        self.workers = workers
        self.jdk: Jdk = find_jdk()
        self._lock = threading.Lock()
        self._batch = itertools.count()
        self._scratch: Path | None = None
        self._ca: Any = None
        self._supervisor: Any = None
        self._plan: Any = None
        self._archive: tuple[Path, Path] | None = None
        self._free_ports: list[int] | None = None
        self._enforced = False
        self.cpu_s = {"jvm": 0.0, "javac": 0.0}
        """CPU seconds spent so far: every program's JVM, and ``javac`` (what benchmarks report)."""

    # -- per-runner state -------------------------------------------------------------------------
    def prepare(self) -> None:
        """Makes the run's certificate authority, trust store and hosts file, and the class-data
        archive when the cache lacks it (idempotent)."""
        if self._scratch is not None:
            return
        import trustme

        scratch = Path(tempfile.mkdtemp(prefix="wapii-jvm-"))
        _world_readable(scratch)
        self._ca = trustme.CA(organization_name="wapii run")
        ca_pem = scratch / "ca.pem"
        self._ca.cert_pem.write_to_path(str(ca_pem))
        trust = scratch / "trust.p12"
        # no certificate encryption and no integrity MAC: a JVM then loads the store without a
        # password-based key derivation (10,000 HMAC rounds in a cold JVM: a quarter of its start)
        done = subprocess.run([str(self.jdk.keytool), "-J-Dkeystore.pkcs12.certProtectionAlgorithm=NONE",
                               "-J-Dkeystore.pkcs12.macAlgorithm=NONE", "-importcert", "-noprompt", "-storetype", "PKCS12", "-keystore",
                               str(trust), "-storepass", TRUST_PASSWORD, "-alias", "wapii-run", "-file", str(ca_pem)],
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"keytool could not make the trust store: {done.stderr.strip()[-300:]}")
        (scratch / "hosts").write_text("# no host resolves: every request goes through the recorder\n")
        (scratch / "jobs").mkdir()
        for path in (ca_pem, trust, scratch / "hosts", scratch / "jobs"):
            _world_readable(path)
        self._scratch = scratch
        self._archive = cds_archive(self.jdk, self.library, self)

    def java_prefix(self, archive: Path | None = None) -> list[str]:
        """The JVM's command line up to its proxy port, class path and main class."""
        assert self._scratch is not None
        flags = [str(self.jdk.java), *JVM_FLAGS, f"-Djdk.net.hosts.file={self._scratch / 'hosts'}",
                 "-Dhttps.proxyHost=127.0.0.1", "-Dhttp.proxyHost=127.0.0.1", "-Dhttp.nonProxyHosts=",
                 f"-Djavax.net.ssl.trustStore={self._scratch / 'trust.p12'}", "-Djavax.net.ssl.trustStoreType=PKCS12"]
        if archive is not None:
            flags.append(f"-XX:SharedArchiveFile={archive}")
        return flags

    def base_classpath(self) -> list[Path]:
        jar = self._archive[1] if self._archive else None
        return [*([jar] if jar else []), *self.library.jars]

    def issue(self, directory: Path, source: str) -> Path:
        """A certificate (and its key) for the hosts ``source`` names, in ``directory``."""
        pem = directory / "cert.pem"
        self._ca.issue_cert(*hosts_in(source)).private_key_and_cert_chain_pem.write_to_path(str(pem))
        _world_readable(pem)
        return pem

    # -- the sandbox ------------------------------------------------------------------------------
    def _read_paths(self) -> list[Path]:
        assert self._scratch is not None
        cds = [self._archive[0].parent] if self._archive else []
        return [*self.jdk.read_paths, self._scratch, *cds, *[jar.parent for jar in self.library.jars]]

    def _jvm_read_paths(self) -> list[Path]:
        """What every JVM reads besides the system's files and its own program's directory: the JDK,
        the class-data archive, the library's jars, the run's trust store and the empty hosts file
        (not the other programs' directories beside them)."""
        assert self._scratch is not None
        cds = [self._archive[0].parent] if self._archive else []
        return [*self.jdk.read_paths, self._scratch / "trust.p12", self._scratch / "hosts", *cds,
                *[jar.parent for jar in self.library.jars]]

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

        archive = self._archive[0] if self._archive else None
        self._plan = self._plan or plan(self._program())
        own_pid_namespace = any(layer.name == "bubblewrap" and layer.active for layer in self._plan.layers)
        scoped = own_pid_namespace or (self._plan.landlock is not None and landlock.abi() >= 6)
        return {
            "java": self.java_prefix(archive),
            "read": [str(p) for p in [*self._jvm_read_paths(), *bwrap.SYSTEM_PATHS, *landlock.DEVICES]],
            "run": [str(p) for p in self.jdk.launcher],
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
                  f"{landlock.covers(landlock.abi())}; each JVM reads only the system's files, the JDK, the class-data "
                  "archive and its own program, runs only the java launcher, writes no file and connects only to "
                  "the recorder's port" if confined else str(landlock.unavailable()),
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

    def run(self, calls: list[str]) -> list[JavaResult]:
        """One :class:`JavaResult` per extracted call, in order."""
        if not calls:
            return []
        supervisor = self._ensure()
        assert self._scratch is not None
        batch = self._scratch / "jobs" / f"b{next(self._batch)}"
        src, out = batch / "src", batch / "classes"
        for path in (batch, src, out):
            path.mkdir(parents=True, exist_ok=True)
        sources = {f"p{i}": program_source(call, f"p{i}") for i, call in enumerate(calls)}
        before = _children_cpu()
        failed = compile_units(self.jdk, sources, src, out, self.base_classpath())
        self.cpu_s["javac"] += _children_cpu() - before
        results: list[JavaResult | None] = [None] * len(calls)
        jobs, where = [], []
        for i, call in enumerate(calls):
            package = f"p{i}"
            if package in failed:
                results[i] = JavaResult(error="runtime_error", detail=f"compile_error: {failed[package]}")
                continue
            directory = batch / "run" / package
            directory.mkdir(parents=True)
            shutil.move(str(out / package), str(directory / package))
            for path in [directory, *directory.rglob("*")]:
                _world_readable(path)
            cert = self.issue(directory, call)
            classpath = ":".join([*map(str, self.base_classpath()), str(directory)])
            jobs.append({"dir": str(directory), "main": f"{package}.Main", "cert": str(cert), "classpath": classpath})
            where.append(i)
        for i, answer in zip(where, supervisor.run(jobs) if jobs else []):
            results[i] = _result(answer)
            self.cpu_s["jvm"] += results[i].cpu_s
        shutil.rmtree(batch, ignore_errors=True)
        return [r if r is not None else JavaResult(error="runtime_error", detail="not run") for r in results]

    def close(self) -> None:
        with self._lock:
            if self._supervisor is not None:
                self._supervisor.close()
                self._supervisor = None
            self._plan = None
            if self._scratch is not None:
                shutil.rmtree(self._scratch, ignore_errors=True)
                self._scratch = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001
            pass


def _children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


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


# -- the class-data archive ---------------------------------------------------------------------------
def cds_archive(jdk: Jdk, library: JavaLibrary, runner: JavaRunner) -> tuple[Path, Path] | None:
    """``(archive, warm-up jar)`` of ``library`` for this JDK and these flags, dumped once into the cache
    (None when it cannot be made: the JVMs then start without it, slower)."""
    if not library.warmup:
        return None
    key = hashlib.sha256(json.dumps([jdk.version, str(jdk.home), library.name, [str(j) for j in library.jars],
                                     library.warmup, JVM_FLAGS]).encode()).hexdigest()[:16]
    home = cache_dir() / "jvm" / f"{library.name}-{key}"
    archive, jar = home / "app.jsa", home / "warmup.jar"
    if archive.exists() and jar.exists():
        return archive, jar
    try:
        return _dump(jdk, library, runner, home)
    except Exception:  # noqa: BLE001 - a missing archive only costs start-up time
        return None


def _dump(jdk: Jdk, library: JavaLibrary, runner: JavaRunner, home: Path) -> tuple[Path, Path] | None:
    from wapii_core.jvm.worker import Worker

    home.mkdir(parents=True, exist_ok=True)
    for path in [*reversed(home.parents)][-3:] + [home]:
        try:
            path.chmod(path.stat().st_mode | 0o055)
        except OSError:
            pass
    work = Path(tempfile.mkdtemp(prefix="wapii-cds-"))
    try:
        src = work / "src" / "WapiiWarmup.java"
        src.parent.mkdir(parents=True)
        src.write_text(library.warmup, encoding="utf-8")
        classes = work / "classes"
        classes.mkdir()
        cp = ":".join(map(str, library.jars))
        done = subprocess.run([str(jdk.javac), "-proc:none", "-d", str(classes), *(["-cp", cp] if cp else []), str(src)],
                              capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            return None
        jar = work / "warmup.jar"
        subprocess.run([str(jdk.home / "bin" / "jar"), "cf", str(jar), "-C", str(classes), "."], check=True,
                       capture_output=True, timeout=120)
        final_jar = home / "warmup.jar"
        shutil.copy(jar, final_jar)
        archive_tmp = work / "app.jsa"
        worker = Worker({"java": [*runner.java_prefix(), f"-XX:ArchiveClassesAtExit={archive_tmp}"], "read": [],
                         "run": [], "limits": {}, "landlock": False})
        try:
            pem = runner.issue(work, library.warmup)
            classpath = ":".join([str(final_jar), *map(str, library.jars)])
            worker.job({"timeout_ms": 120_000, "dir": str(work), "main": "WapiiWarmup", "cert": str(pem),
                        "classpath": classpath, "wait_exit": True})
        finally:
            worker.listener.close()
        if not archive_tmp.exists():
            return None
        shutil.copy(archive_tmp, home / "app.jsa")
        for path in (home / "app.jsa", final_jar, home):
            _world_readable(path)
        return home / "app.jsa", final_jar
    finally:
        shutil.rmtree(work, ignore_errors=True)
