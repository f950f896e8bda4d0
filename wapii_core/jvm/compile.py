"""Compiling many programs with one ``javac`` run: each program a package of its own (``p<N>.Main``).

``javac`` writes no class file when any compilation unit has an error, so a batch is compiled, the
units named in the errors are set aside as those samples' compile errors (with their first error
line), and the rest is compiled again; a unit never makes another fail (each is its own package
and compiles alone). ``-proc:none``: no annotation processor runs, so compiling runs none of the
program's code; ``javac`` gets a time limit and a heap limit.

``javac`` runs in a :class:`Javac`: one long-lived compiler JVM per runner (``wapii.Compile``), each
batch a javac run of its own in it. A cold ``javac`` spends most of its CPU on starting and warming
itself (about 0.8 s for 64 programs on Java 17); a warm one compiles the same 64 in about 0.1 s.
"""

from __future__ import annotations

import re
import subprocess
import threading
from pathlib import Path

from wapii_core.jvm.toolchain import Jdk

COMPILE_TIMEOUT_S = 300.0
COMPILER_FLAGS = ("-Xmx768m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData")
"""The compiler JVM's: a bounded heap; the client compiler alone (the server compiler's work never pays
back on batches this small)."""
_ERROR = re.compile(r"^(?P<path>/[^\n:]+\.java):(?P<line>\d+): error: (?P<message>.*)$", re.MULTILINE)


class Javac:
    """A long-lived ``javac`` (``wapii.Compile`` in ``support_jar``, on ``jdk``'s own ``java``),
    started on first use and again after it died or overran its time; thread-safe."""

    def __init__(self, jdk: Jdk, support_jar: Path) -> None:
        self.jdk = jdk
        self.support_jar = support_jar
        self._process: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()

    def _started(self) -> subprocess.Popen[str]:
        if self._process is None or self._process.poll() is not None:
            self._process = subprocess.Popen([str(self.jdk.java), *COMPILER_FLAGS, "-cp", str(self.support_jar), "wapii.Compile"],
                                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                             text=True, encoding="utf-8")
        return self._process

    def run(self, argument_file: Path) -> tuple[int, str]:
        """javac's exit code and messages for the arguments in ``argument_file`` (one per line)."""
        with self._lock:
            process = self._started()
            assert process.stdin is not None and process.stdout is not None
            timer = threading.Timer(COMPILE_TIMEOUT_S, process.kill)
            timer.start()
            try:
                process.stdin.write(f"{argument_file}\n")
                process.stdin.flush()
                answer = process.stdout.readline()
            except OSError:
                answer = ""
            finally:
                timer.cancel()
            messages_file = Path(f"{argument_file}.out")
            messages = messages_file.read_text(encoding="utf-8", errors="replace") if messages_file.exists() else ""
            if not answer.strip().lstrip("-").isdigit():
                ended = process.poll()
                self.close_locked()
                why = (f"the compiler JVM ended (exit status {ended})" if ended not in (None, -9)
                       else f"javac ran longer than {COMPILE_TIMEOUT_S:.0f} s")
                return 4, messages or why
            return int(answer), messages

    def cpu_seconds(self) -> float:
        """CPU seconds the compiler JVM has used so far (0 when it is not running)."""
        import os

        process = self._process
        if process is None:
            return 0.0
        try:
            with open(f"/proc/{process.pid}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close_locked(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            for stream in (self._process.stdin, self._process.stdout):
                if stream is not None:
                    stream.close()
            self._process = None

    def close(self) -> None:
        with self._lock:
            self.close_locked()


def compile_units(javac: Javac, sources: dict[str, str], src_root: Path, out_root: Path,
                  classpath: list[Path] = (), release: int | None = None) -> dict[str, str]:
    """Compiles ``{package: source}`` (each written to ``src_root/<package>/Main.java``) into
    ``out_root`` (for Java ``release``, default the compiler's own); returns ``{package: first
    error line}`` for the units that do not compile."""
    paths: dict[str, Path] = {}
    for package, source in sources.items():
        path = src_root / package / "Main.java"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8", errors="surrogatepass")
        paths[package] = path
    failed: dict[str, str] = {}
    pending = dict(paths)
    while pending:
        errors = _javac(javac, list(pending.values()), out_root, classpath, release)
        if errors is None:
            break
        by_path = {str(path): package for package, path in pending.items()}
        named = {by_path[p]: m for p, m in errors.items() if p in by_path}
        if not named:  # an error javac did not attribute to a unit: every unit fails with it
            message = next(iter(errors.values()), "javac failed")
            failed.update({package: message for package in pending})
            break
        failed.update(named)
        pending = {package: path for package, path in pending.items() if package not in named}
    return failed


def _quoted(argument: str) -> str:
    return '"' + argument.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _javac(javac: Javac, files: list[Path], out_root: Path, classpath: list[Path], release: int | None) -> dict[str, str] | None:
    """None when every file compiled, else ``{path: first error}`` (``{"": output}`` for a failure
    that names no file)."""
    cp = ["-cp", ":".join(map(str, classpath))] if classpath else []
    target = ["--release", str(release)] if release is not None else []
    arguments = ["-proc:none", "-encoding", "UTF-8", "-g:none", "-nowarn", "-Xmaxerrs", "100000", "-XDsuppressNotes",
                 "-implicit:none", *target, *cp, "-d", str(out_root), *map(str, files)]
    argument_file = out_root.parent / f"{out_root.name}.javac-args"
    argument_file.write_text("\n".join(map(_quoted, arguments)), encoding="utf-8")
    code, messages = javac.run(argument_file)
    if code == 0:
        return None
    errors: dict[str, str] = {}
    for match in _ERROR.finditer(messages):
        errors.setdefault(match.group("path"), f"line {match.group('line')}: {match.group('message')}")
    return errors or {"": (messages.strip().splitlines() or ["javac failed"])[-1]}
