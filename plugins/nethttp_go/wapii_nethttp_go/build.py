"""Compiling a batch of generated programs: one module, one compiler run, one binary.

:func:`build_batch` writes each program through the trusted preprocessor (``go/prep``: imports
completed and pruned as goimports does), as a file of one shared package (``progs``: its
package-level names prefixed with its own, ``main`` exported as ``W<name>``), compiled in one
compiler run that reports every error (``-gcflags=-e``); a program whose file does not compile there
is left out of it (the rest is compiled again) and built from a package of its own instead (``main``
renamed ``WapiiMain``), where a failure is that program's own compile error, whatever the others
hold (the usual batch, where everything compiles, is compiled and linked by a single ``go build``).
Then one dispatcher binary is linked (``run <name>`` calls that program's main) together with a binary of its own for each
program that initialises package-level state (``init``, a package variable with a value: code that
would otherwise run in every program of the shared binary). Package names are digests of the
source, so the build cache serves a program compiled before, in any batch.

Compilation is untrusted work: every run of the preprocessor and of ``go build`` (``-p 2``) is under
the compile budget (``wapii_core.kits.sandbox.CompileBudget``: memory per process, a share of time per
program), and a run that fails naming no program (out of time or memory, a link failure) is split
by :func:`~wapii_core.kits.sandbox.isolate_failures` until the programs that cause it are alone; only they
get ``compile_limit: ...`` (or ``compile_error: ...``). The sources live in ``<cache>/go/work/<key>``
(mode 0700, removed once built), the binaries in ``<cache>/go/batches/<key>/bin``: the programs
read only those. Every compiler run is confined to the batch's file view (``run_compiler``'s ``read`` and ``write``): it reads
the Go root, the preparation tool and the capture overlay, and writes only its batch's sources, its
temporary files (beneath them), its binaries and the shared build cache; no network.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from wapii_core.kits.sandbox import CompileAttempt, CompileBudget, CompilerRun, isolate_failures, run_compiler

from .toolchain import build_flags, go_binary, go_dir, go_env, goroot, overlay, overlay_source, prep_tool

MODULE = "wapiiprog"
DISPATCHER = "run"
MAX_ERROR = 400
MAX_ROUNDS = 8
COMPILER_PROCESSES = "2"
"""``go build -p``: at most two compile or link processes at once, each within the budget's memory."""


@dataclass
class Built:
    """One program of a batch: the argv that runs it, or why it did not build."""

    argv: list[str] | None = None
    error: str | None = None


@dataclass
class Batch:
    """A built batch: one :class:`Built` per source, in order, and its directory (removed by :meth:`remove`)."""

    programs: list[Built]
    directory: Path
    timings: dict[str, float] = field(default_factory=dict)

    def remove(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)


def batches_dir() -> Path:
    """Where each batch's binaries are (what the programs may read; no source is ever there)."""
    path = go_dir() / "batches"
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o755)
    return path


def work_dir() -> Path:
    """Where batches are prepared and compiled: the sources, outside every program's view (mode 0700)."""
    path = go_dir() / "work"
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o700)
    return path


def package_name(source: str) -> str:
    return "p" + hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()[:20]


_HEADER = re.compile(rf"^# {MODULE}/(p[0-9a-f]+)\s*$")
_LINE = re.compile(r"^(?:\./)?(p[0-9a-f]{20})/")
SHARED = "progs"
_SHARED_LINE = re.compile(rf"^(?:\./)?{SHARED}/(p[0-9a-f]{{20}})\.go:")


def _errors_by_package(stderr: str, names: set[str]) -> dict[str, str]:
    """The first error line of each package the build output blames."""
    found: dict[str, str] = {}
    current: str | None = None
    for line in stderr.splitlines():
        header = _HEADER.match(line)
        if header:
            current = header.group(1) if header.group(1) in names else None
            continue
        blamed = _LINE.match(line)
        name = blamed.group(1) if blamed and blamed.group(1) in names else current
        if name and name not in found and line.strip():
            text = line.split("/", 1)[1] if blamed else line
            found[name] = text.strip()[:MAX_ERROR]
    return found


def _failed_attempt(run: CompilerRun, group: list[str], step: str) -> CompileAttempt:
    """A failed ``go build`` of ``group``: the programs its output names get their ``compile_error``;
    a run past its budget, or a failure naming none of them, is left for the search to split."""
    if not run.limit:
        blamed = _errors_by_package(run.stderr.decode("utf-8", "replace"), set(group))
        if blamed:
            return CompileAttempt(blamed={name: f"compile_error: {message}" for name, message in blamed.items()})
    return CompileAttempt(unexplained=_failure(run, step))


def _dispatcher(names: list[str], shared: list[str]) -> str:
    imports = "".join(f'\t"{MODULE}/{name}"\n' for name in [*names, *([SHARED] if shared else [])])
    cases = "".join(f"\tcase {json.dumps(name)}:\n\t\t{name}.WapiiMain()\n" for name in names)
    cases += "".join(f"\tcase {json.dumps(name)}:\n\t\t{SHARED}.W{name}()\n" for name in shared)
    return (f"package main\n\nimport (\n\t\"os\"\n{imports})\n\nfunc main() {{\n\tif len(os.Args) < 2 {{\n"
            f"\t\tos.Exit(2)\n\t}}\n\tswitch os.Args[1] {{\n{cases}\tdefault:\n\t\tos.Exit(2)\n\t}}\n}}\n")


def _failure(run: CompilerRun, what: str) -> str:
    """The judged detail of a compiler run that failed naming no program."""
    if run.limit:
        return f"compile_limit: {run.limit}"
    last = (run.stderr.decode("utf-8", "replace").strip().splitlines() or [f"{what} failed"])[-1]
    return f"compile_error: {what}: {last[:MAX_ERROR]}"


class _Builder:
    """One batch's build in ``module`` (sources, outside every program's view) into ``bin_dir``: every
    compiler run under ``budget``, every failure that names no program searched by bisection."""

    def __init__(self, sources: dict[str, str], module: Path, bin_dir: Path, budget: CompileBudget) -> None:
        self.sources, self.module, self.bin_dir, self.budget = sources, module, bin_dir, budget
        self.env = go_env()
        self.env["TMPDIR"] = str(module / ".tmp")  # the batch's own (a directory go ignores in a module)
        Path(self.env["TMPDIR"]).mkdir(parents=True, exist_ok=True)
        self.read = [goroot(), prep_tool(), overlay(), overlay_source()]
        self.write = [module, bin_dir, Path(self.env["GOCACHE"])]
        Path(self.env["GOCACHE"]).mkdir(parents=True, exist_ok=True)  # a view holds only what exists
        self.errors: dict[str, str] = {}
        self.argv: dict[str, list[str]] = {}
        self.standalone: set[str] = set()
        self.in_shared: list[str] = []
        self.runs = 0
        self._links = 0

    def _run(self, argv: list[str], programs: int, stdin: bytes | None = None) -> CompilerRun:
        self.runs += 1
        return run_compiler(argv, cwd=self.module, env=self.env, budget=self.budget, programs=programs, stdin=stdin,
                            read=self.read, write=self.write)

    def _go(self, args: list[str], programs: int) -> CompilerRun:
        return self._run([go_binary(), args[0], "-p", COMPILER_PROCESSES, *args[1:]], programs)

    # -- preparation ------------------------------------------------------------------------------
    def prepare(self, group: list[str]) -> CompileAttempt:
        request = json.dumps({"dir": str(self.module), "programs": [{"id": n, "src": self.sources[n]} for n in group]})
        run = self._run([str(prep_tool())], len(group), stdin=request.encode("utf-8", "surrogatepass"))
        if run.returncode != 0 or run.limit:
            return CompileAttempt(unexplained=_failure(run, "the Go preparation"))
        try:
            answers = [json.loads(line) for line in run.stdout.decode("utf-8").splitlines()]
        except ValueError:
            return CompileAttempt(unexplained="compile_error: the Go preparation's answer is malformed")
        for answer in answers:
            name = answer.get("id")
            if name not in group:
                continue
            if not answer.get("ok"):
                self.errors[name] = f"compile_error: {answer.get('error') or 'the program was refused'}"
            elif answer.get("standalone"):
                self.standalone.add(name)
            elif answer.get("shared"):
                self.in_shared.append(name)
        return CompileAttempt()

    # -- the usual batch: one go command --------------------------------------------------------
    def at_once(self, ready: list[str]) -> CompilerRun | None:
        """The shared package compiled and the binaries linked by one go command; None when it built
        everything, else the failed run (nothing left behind)."""
        alone = [name for name in ready if name in self.standalone]
        shared = set(self.in_shared)
        separate = [name for name in ready if name not in self.standalone and name not in shared]
        targets = [f"./{name}" for name in alone]
        if self.in_shared or separate:
            (self.module / "cmd" / DISPATCHER).mkdir(parents=True)
            (self.module / "cmd" / DISPATCHER / "main.go").write_text(_dispatcher(separate, self.in_shared))
            targets.insert(0, f"./cmd/{DISPATCHER}")
        run = self._go(["build", f"-gcflags={MODULE}/{SHARED}=-e", *build_flags(), "-o", f"{self.bin_dir}/", *targets],
                       len(ready))
        if run.returncode == 0 and not run.limit:
            for name in ready:
                self.argv[name] = ([str(self.bin_dir / name)] if name in self.standalone
                                   else [str(self.bin_dir / DISPATCHER), name])
            return None
        shutil.rmtree(self.module / "cmd", ignore_errors=True)
        for child in self.bin_dir.iterdir():
            child.unlink()
        return run

    # -- step by step ---------------------------------------------------------------------------
    def compile_shared(self) -> None:
        """Compiles the shared package; files that do not compile are removed from it (their programs
        are compiled from their own packages). Empty when the failure cannot be told per file."""
        left = list(self.in_shared)
        for _ in range(MAX_ROUNDS):
            if not left:
                break
            run = self._go(["build", "-gcflags=-e", *build_flags(), f"./{SHARED}"], len(left))
            if run.returncode == 0 and not run.limit:
                self.in_shared = left
                return
            blamed = set()
            if not run.limit:
                for line in run.stderr.decode("utf-8", "replace").splitlines():
                    match = _SHARED_LINE.match(line)
                    if match and match.group(1) in left:
                        blamed.add(match.group(1))
            if not blamed:
                break
            for name in blamed:
                (self.module / SHARED / f"{name}.go").unlink()
            left = [name for name in left if name not in blamed]
        shutil.rmtree(self.module / SHARED, ignore_errors=True)
        self.in_shared = []

    def compile_own(self, group: list[str]) -> CompileAttempt:
        """Compiles each program of ``group`` from its own package."""
        run = self._go(["build", *build_flags(), *[f"./{name}" for name in group]], len(group))
        if run.returncode == 0 and not run.limit:
            return CompileAttempt()
        return _failed_attempt(run, group, "go build")

    def link(self, group: list[str]) -> CompileAttempt:
        """Links ``group``: a dispatcher for the programs that share a binary, a binary for each that
        initialises package state; a program alone is linked from its own package."""
        self._links += 1
        out = self.bin_dir / f"l{self._links}"
        shared_set = set(self.in_shared) if len(group) > 1 else set()
        separate = [n for n in group if n not in self.standalone and n not in shared_set]
        shared = [n for n in group if n in shared_set]
        targets = [f"./{name}" for name in group if name in self.standalone]
        command = f"{DISPATCHER}{self._links}"
        if separate or shared:
            (self.module / "cmd" / command).mkdir(parents=True)
            (self.module / "cmd" / command / "main.go").write_text(_dispatcher(separate, shared))
            targets.insert(0, f"./cmd/{command}")
        run = self._go(["build", *build_flags(), "-o", f"{out}/", *targets], len(group))
        if run.returncode == 0 and not run.limit:
            for name in group:
                self.argv[name] = [str(out / name)] if name in self.standalone else [str(out / command), name]
            return CompileAttempt()
        return _failed_attempt(run, group, "linking")

    def step_by_step(self, ready: list[str], limited: bool) -> None:
        if limited:  # the shared package ran out of its budget: each program from its own package
            shutil.rmtree(self.module / SHARED, ignore_errors=True)
            self.in_shared = []
        else:
            self.compile_shared()
        shared = set(self.in_shared)
        own = [name for name in ready if name not in shared]
        # a batch that ran out of its budget fails so again: its halves are where the search starts
        for part in ([own[:len(own) // 2], own[len(own) // 2:]] if limited and len(own) > 1 else [own]):
            self.errors.update(isolate_failures(part, self.compile_own).failed)
        compiled = [name for name in ready if name not in self.errors]
        self.errors.update(isolate_failures(compiled, self.link).failed)


def build_batch(sources: list[str], budget: CompileBudget | None = None) -> Batch:
    """Builds every source (see the module's docstring) under ``budget`` (default: from the
    environment); never raises for what a program holds."""
    import time

    key = uuid.uuid4().hex
    directory = batches_dir() / key
    bin_dir = directory / "bin"
    module = work_dir() / key
    bin_dir.mkdir(parents=True)
    module.mkdir(mode=0o700)
    for path in (directory, bin_dir):
        path.chmod(0o755)
    try:
        (module / "go.mod").write_text(f"module {MODULE}\n\ngo 1.27\n")
        names = [package_name(source) for source in sources]
        builder = _Builder(dict(zip(names, sources)), module, bin_dir, budget or CompileBudget.from_env())
        unique = list(builder.sources)
        timings: dict[str, float] = {}
        began = time.perf_counter()
        prepared = isolate_failures(unique, builder.prepare)
        for name, error in prepared.failed.items():
            builder.errors[name] = error
            shutil.rmtree(module / name, ignore_errors=True)
            (module / SHARED / f"{name}.go").unlink(missing_ok=True)
        builder.in_shared = [name for name in builder.in_shared if name not in builder.errors]
        timings["prep_s"] = time.perf_counter() - began
        ready = [name for name in unique if name not in builder.errors]
        failed = builder.at_once(ready) if ready else None
        timings["compile_s"] = 0.0
        if failed is not None:
            builder.step_by_step(ready, limited=failed.limit is not None)
            timings["compile_s"] = time.perf_counter() - began - timings["prep_s"]
        timings["link_s"] = time.perf_counter() - began - timings["prep_s"] - timings["compile_s"]
        timings["compiler_runs"] = float(builder.runs)
        programs = [Built(argv=builder.argv[name]) if name in builder.argv and name not in builder.errors
                    else Built(error=builder.errors.get(name, "compile_error: the program did not build"))
                    for name in names]
        return Batch(programs, directory, timings)
    finally:
        shutil.rmtree(module, ignore_errors=True)
