"""Compiling many programs with one ``javac`` run: each program a package of its own (``p<N>.Main``).

``javac`` writes no class file when any compilation unit has an error, so a batch is compiled, the
units named in the errors are set aside as those samples' compile errors (with their first error
line), and the rest is compiled again; a unit never makes another fail (each is its own package
and compiles alone). ``-proc:none``: no annotation processor runs, so compiling runs none of the
program's code.

javac is untrusted work (:mod:`wapii_core.sandbox.compile_budget`): its JVM runs under the budget's
rlimits (``RLIMIT_DATA`` the budget's memory, its heap half of it), each batch within the budget's
time for its units; a batch that fails naming no unit (javac's heap or stack exhausted, its time
run out) is split in halves and compiled again (a fresh compiler JVM after such a failure) until the
units at fault are alone: they get ``compile_limit: ...`` (or ``compile_error: ...``), the rest
compile.

The compiler JVM runs inside a file view (:func:`~wapii_core.sandbox.compile_budget.confined`: bubblewrap,
else Landlock) when the runner gives it one: it reads the JDK and the class path's jars, writes only
the runner's batches (sources, classes, argument and message files), and reaches no network.

``javac`` runs in a :class:`Javac`: one long-lived compiler JVM per runner (``wapii.Compile``), each
batch a javac run of its own in it. A cold ``javac`` spends most of its CPU on starting and warming
itself (about 0.8 s for 64 programs on Java 17); a warm one compiles the same 64 in about 0.1 s.
"""

from __future__ import annotations

import re
import resource
import subprocess
import threading
from collections.abc import Sequence
from pathlib import Path

from wapii_core.jvm.toolchain import Jdk
from wapii_core.sandbox.compile_budget import CompileAttempt, CompileBudget, CompileView, confined, isolate_failures

COMPILER_FLAGS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData")
"""The compiler JVM's (its heap: :func:`heap_flag`): the client compiler alone (the server compiler's
work never pays back on batches this small)."""
_ERROR = re.compile(r"^(?P<path>/[^\n:]+\.java):(?P<line>\d+): error: (?P<message>.*)$", re.MULTILINE)


def heap_flag(budget: CompileBudget) -> str:
    """The compiler JVM's heap: half its memory (the rest: its code, metadata and threads)."""
    return f"-Xmx{budget.memory // 2 // (1 << 20)}m"


class Javac:
    """A long-lived ``javac`` (``wapii.Compile`` in ``support_jar``, on ``jdk``'s own ``java``) under
    ``budget`` (default: from the environment), started on first use and again after it died, overran
    its time or failed naming no file; thread-safe. With ``write`` (the directories its batches are
    in), it runs inside the file view that reads the JDK, the support jar and ``read`` (the class
    path's directories) and writes only beneath ``write``."""

    def __init__(self, jdk: Jdk, support_jar: Path, budget: CompileBudget | None = None, *,
                 read: Sequence[Path] = (), write: Sequence[Path] = ()) -> None:
        self.jdk = jdk
        self.support_jar = support_jar
        self.budget = budget or CompileBudget.from_env()
        self.view = (CompileView.of([*jdk.read_paths, jdk.home, support_jar, *read], write) if write else None)
        self._process: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()

    def _started(self) -> subprocess.Popen[str]:
        if self._process is None or self._process.poll() is not None:
            from wapii_core.sandbox.rlimit_exec import limits_prefix

            limits = self.budget.limits(0)
            del limits[resource.RLIMIT_CPU]  # a long-lived JVM: each batch's time is kept by run()
            from wapii_core.sandbox.limits import clean_env

            argv = [str(self.jdk.java), heap_flag(self.budget), *COMPILER_FLAGS, "-cp", str(self.support_jar), "wapii.Compile"]
            env, cwd = clean_env(), (self.view.write[0] if self.view else None)
            if self.view is not None:
                argv = confined(argv, self.view, env, self.view.write[0])
            self._process = subprocess.Popen([*limits_prefix(limits), *argv], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=subprocess.DEVNULL, text=True, encoding="utf-8", start_new_session=True,
                                             env=env if self.view else None, cwd=cwd)
        return self._process

    def run(self, argument_file: Path, units: int = 1) -> tuple[int, str]:
        """javac's exit code and messages for the arguments in ``argument_file`` (one per line), which
        compile ``units`` programs (their share of the budget's time)."""
        seconds = self.budget.seconds(units)
        with self._lock:
            process = self._started()
            assert process.stdin is not None and process.stdout is not None
            timer = threading.Timer(seconds, process.kill)
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
                       else f"the compiler ran longer than its {seconds:g} s")
                return 4, why
            code = int(answer)
            if code not in (0, 1):  # javac itself failed (its heap, its stack): a fresh JVM for the next batch
                self.close_locked()
            return code, messages

    def cpu_seconds(self) -> float:
        """CPU seconds the compiler JVM has used so far (0 when it is not running): its process and
        every process beneath it (the JVM runs beneath bubblewrap when confined by it)."""
        import os

        process = self._process
        if process is None:
            return 0.0
        total, todo = 0, [process.pid]
        while todo:
            pid = todo.pop()
            try:
                with open(f"/proc/{pid}/stat", "rb") as stat:
                    fields = stat.read().rsplit(b")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])
                for task in os.listdir(f"/proc/{pid}/task"):
                    with open(f"/proc/{pid}/task/{task}/children", "rb") as children:
                        todo += [int(child) for child in children.read().split()]
            except (OSError, ValueError):
                continue
        return total / os.sysconf("SC_CLK_TCK")

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
    ``out_root`` (for Java ``release``, default the compiler's own); returns ``{package: detail}`` for
    the units that do not compile: ``compile_error: <first error line>``, or ``compile_limit: ...``
    for a unit that alone exhausts the compiler's budget."""
    paths: dict[str, Path] = {}
    for package, source in sources.items():
        path = src_root / package / "Main.java"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8", errors="surrogatepass")
        paths[package] = path

    def attempt(group: list[str]) -> CompileAttempt:
        errors = _javac(javac, [paths[package] for package in group], out_root, classpath, release)
        if errors is None:
            return CompileAttempt()
        by_path = {str(paths[package]): package for package in group}
        named = {by_path[p]: f"compile_error: {m}" for p, m in errors.items() if p in by_path}
        if named:
            return CompileAttempt(blamed=named)
        return CompileAttempt(unexplained=next(iter(errors.values()), "compile_error: javac failed"))

    return isolate_failures(list(paths), attempt).failed


def _quoted(argument: str) -> str:
    return '"' + argument.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _javac(javac: Javac, files: list[Path], out_root: Path, classpath: list[Path], release: int | None) -> dict[str, str] | None:
    """None when every file compiled, else ``{path: first error}`` (``{"": detail}`` for a failure
    that names no file: ``compile_limit: ...`` when javac ran out of its budget)."""
    cp = ["-cp", ":".join(map(str, classpath))] if classpath else []
    target = ["--release", str(release)] if release is not None else []
    arguments = ["-proc:none", "-encoding", "UTF-8", "-g:none", "-nowarn", "-Xmaxerrs", "100000", "-XDsuppressNotes",
                 "-implicit:none", *target, *cp, "-d", str(out_root), *map(str, files)]
    argument_file = out_root.parent / f"{out_root.name}.javac-args"
    argument_file.write_text("\n".join(map(_quoted, arguments)), encoding="utf-8")
    code, messages = javac.run(argument_file, len(files))
    if code == 0:
        return None
    errors: dict[str, str] = {}
    if code == 1:  # errors in the sources (not javac's own failure)
        for match in _ERROR.finditer(messages):
            errors.setdefault(match.group("path"), f"line {match.group('line')}: {match.group('message')}")
    if errors:
        return errors
    lines = messages.strip().splitlines() or ["javac failed"]
    limit = next((line.strip() for word in _LIMIT_WORDS for line in lines if word in line), None)
    if limit is not None or code != 1:
        return {"": f"compile_limit: {(limit or lines[-1])[:300]}"}
    return {"": f"compile_error: {lines[-1][:300]}"}


_LIMIT_WORDS = ("OutOfMemoryError", "StackOverflowError", "out of resources", "ran longer than", "compiler JVM ended")
