"""Compiling a batch of generated programs: one module, one package per program, one binary.

:func:`build_batch` writes each program through the trusted preprocessor (``go/prep``: imports
completed and pruned as goimports does, package renamed, ``main`` renamed ``WapiiMain``), compiles
every package with one ``go build`` (a package that does not compile is that program's error, and
the others are built again without it, from the build cache), then links one dispatcher binary
(``run <package>`` calls that package's ``WapiiMain``) together with a binary of its own for each
program that initialises package-level state (``init``, a package variable with a value: code that
would otherwise run in every program of the shared binary). Package names are digests of the
source, so the build cache serves a program compiled before, in any batch.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from .toolchain import build_flags, go_dir, prep_tool, run_go

MODULE = "wapiiprog"
DISPATCHER = "run"
MAX_ERROR = 400
MAX_ROUNDS = 8


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
    path = go_dir() / "batches"
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o755)
    return path


def package_name(source: str) -> str:
    return "p" + hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()[:20]


_HEADER = re.compile(rf"^# {MODULE}/(p[0-9a-f]+)\s*$")
_LINE = re.compile(r"^(?:\./)?(p[0-9a-f]{20})/")


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


def _dispatcher(names: list[str]) -> str:
    imports = "".join(f'\t"{MODULE}/{name}"\n' for name in names)
    cases = "".join(f"\tcase {json.dumps(name)}:\n\t\t{name}.WapiiMain()\n" for name in names)
    return (f"package main\n\nimport (\n\t\"os\"\n{imports})\n\nfunc main() {{\n\tif len(os.Args) < 2 {{\n"
            f"\t\tos.Exit(2)\n\t}}\n\tswitch os.Args[1] {{\n{cases}\tdefault:\n\t\tos.Exit(2)\n\t}}\n}}\n")


def _compile(module: Path, names: list[str], errors: dict[str, str]) -> list[str]:
    """Compiles ``names``; the ones that fail go into ``errors``; returns those that compiled."""
    left = list(names)
    for _ in range(MAX_ROUNDS):
        if not left:
            return []
        done = run_go(["build", *build_flags(), *[f"./{name}" for name in left]], module)
        if done.returncode == 0:
            return left
        stderr = done.stderr.decode("utf-8", "replace")
        blamed = _errors_by_package(stderr, set(left))
        if not blamed:
            message = (stderr.strip().splitlines() or ["go build failed"])[-1][:MAX_ERROR]
            for name in left:
                errors[name] = message
            return []
        errors.update(blamed)
        left = [name for name in left if name not in blamed]
    for name in left:
        errors[name] = "the batch did not compile"
    return []


def build_batch(sources: list[str]) -> Batch:
    """Builds every source (see the module's docstring); never raises for what a program holds."""
    import time

    directory = batches_dir() / uuid.uuid4().hex
    module = directory / "src"
    bin_dir = directory / "bin"
    module.mkdir(parents=True)
    bin_dir.mkdir()
    for path in (directory, module, bin_dir):
        path.chmod(0o755)
    (module / "go.mod").write_text(f"module {MODULE}\n\ngo 1.27\n")
    names = [package_name(source) for source in sources]
    unique = dict(zip(names, sources))
    timings: dict[str, float] = {}
    began = time.perf_counter()
    request = json.dumps({"dir": str(module), "programs": [{"id": n, "src": s} for n, s in unique.items()]})
    done = run_go_tool(prep_tool(), module, request.encode())
    errors: dict[str, str] = {}
    standalone: set[str] = set()
    for line in done.splitlines():
        answer = json.loads(line)
        if not answer.get("ok"):
            errors[answer["id"]] = answer.get("error") or "the program was refused"
        elif answer.get("standalone"):
            standalone.add(answer["id"])
    timings["prep_s"] = time.perf_counter() - began
    compiled = _compile(module, [name for name in unique if name not in errors], errors)
    timings["compile_s"] = time.perf_counter() - began - timings["prep_s"]
    shared = [name for name in compiled if name not in standalone]
    alone = [name for name in compiled if name in standalone]
    linked: set[str] = set()
    if shared or alone:
        targets = []
        if shared:
            (module / "cmd" / DISPATCHER).mkdir(parents=True)
            (module / "cmd" / DISPATCHER / "main.go").write_text(_dispatcher(shared))
            targets.append(f"./cmd/{DISPATCHER}")
        targets += [f"./{name}" for name in alone]
        done_link = run_go(["build", *build_flags(), "-o", f"{bin_dir}/", *targets], module)
        if done_link.returncode == 0:
            linked = set(compiled)
        else:
            message = (done_link.stderr.decode("utf-8", "replace").strip().splitlines() or ["link failed"])[-1]
            for name in compiled:
                errors[name] = f"the batch could not be linked: {message[:MAX_ERROR]}"
    timings["link_s"] = time.perf_counter() - began - timings["prep_s"] - timings["compile_s"]
    programs = []
    for name in names:
        if name in linked:
            argv = [str(bin_dir / name)] if name in standalone else [str(bin_dir / DISPATCHER), name]
            programs.append(Built(argv=argv))
        else:
            programs.append(Built(error=errors.get(name, "the program did not build")))
    return Batch(programs, directory, timings)


def run_go_tool(tool: Path, cwd: Path, stdin: bytes) -> str:
    import subprocess

    from .toolchain import go_env

    done = subprocess.run([str(tool)], cwd=cwd, input=stdin, capture_output=True, env=go_env(), timeout=300)
    if done.returncode != 0:
        from wapii_core.api import WapiiError

        raise WapiiError(f"nethttp_go: the Go preprocessor failed: {done.stderr.decode(errors='replace')[-300:]}")
    return done.stdout.decode("utf-8")
