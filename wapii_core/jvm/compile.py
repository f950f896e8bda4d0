"""Compiling many programs with one ``javac`` call: each program a package of its own (``p<N>.Main``).

``javac`` writes no class file when any compilation unit has an error, so a batch is compiled, the
units named in the errors are set aside as those samples' compile errors (with their first error
line), and the rest is compiled again; a unit never makes another fail (each is its own package
and compiles alone). ``-proc:none``: no annotation processor runs, so compiling runs none of the
program's code; ``javac`` gets a time limit and a heap limit.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from wapii_core.jvm.toolchain import Jdk

COMPILE_TIMEOUT_S = 300.0
_ERROR = re.compile(r"^(?P<path>/[^\n:]+\.java):(?P<line>\d+): error: (?P<message>.*)$", re.MULTILINE)


def compile_units(jdk: Jdk, sources: dict[str, str], src_root: Path, out_root: Path,
                  classpath: list[Path] = ()) -> dict[str, str]:
    """Compiles ``{package: source}`` (each written to ``src_root/<package>/Main.java``) into
    ``out_root``; returns ``{package: first error line}`` for the units that do not compile."""
    paths: dict[str, Path] = {}
    for package, source in sources.items():
        path = src_root / package / "Main.java"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8", errors="surrogatepass")
        paths[package] = path
    failed: dict[str, str] = {}
    pending = dict(paths)
    while pending:
        errors = _javac(jdk, list(pending.values()), out_root, classpath)
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


def _javac(jdk: Jdk, files: list[Path], out_root: Path, classpath: list[Path]) -> dict[str, str] | None:
    """None when every file compiled, else ``{path: first error}`` (``{"": output}`` for a failure
    that names no file)."""
    argfile = out_root.parent / f"{out_root.name}.javac-args"
    argfile.write_text("\n".join(f'"{p}"' for p in files), encoding="utf-8")
    cp = ["-cp", ":".join(map(str, classpath))] if classpath else []
    command = [str(jdk.javac), "-J-Xmx768m", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-proc:none",
               "-encoding", "UTF-8", "-g:none", "-nowarn", "-Xmaxerrs", "100000", "-XDsuppressNotes",
               "-implicit:none", *cp, "-d", str(out_root), f"@{argfile}"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return {"": f"javac ran longer than {COMPILE_TIMEOUT_S:.0f} s"}
    if done.returncode == 0:
        return None
    errors: dict[str, str] = {}
    for match in _ERROR.finditer(done.stderr):
        errors.setdefault(match.group("path"), f"line {match.group('line')}: {match.group('message')}")
    return errors or {"": (done.stderr.strip().splitlines() or ["javac failed"])[-1]}
