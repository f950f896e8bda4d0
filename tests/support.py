"""Where the read-only reference data is, and how to run the real CLI (imported by tests)."""

from __future__ import annotations

import dataclasses
import hashlib
import math
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("WAPII_SHARED") or REPO.parent / "shared").resolve()
"""The read-only reference data: ``$WAPII_SHARED``, else ``<repo>/../shared`` (the one place that says so)."""
WAPIIBENCH = SHARED / "wapiibench"
CONFORMANCE = SHARED / "conformance"


def needs_shared(*parts: str):
    """A skip mark for tests that need ``SHARED/<parts>`` (the reason names the path and the variable)."""
    import pytest

    path = SHARED.joinpath(*parts)
    return pytest.mark.skipif(not path.exists(), reason=f"needs {path} (set WAPII_SHARED)")


def shared_path(*parts: str) -> Path:
    """``SHARED/<parts>``; the calling test or fixture is skipped when it is not there."""
    import pytest

    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"needs {path} (set WAPII_SHARED)")
    return path


def skip_without_node() -> None:
    """Skips the calling test or fixture when no Node.js is installed (``WAPII_NODE`` or ``node`` on PATH)."""
    import shutil

    import pytest

    if not (os.environ.get("WAPII_NODE") or shutil.which("node")):
        pytest.skip("Node.js is not installed")


def skip_without_jdk(*more) -> None:
    """Skips the calling test or fixture without a JDK, or when one of ``more`` (callables that find
    a further toolchain piece, e.g. a library's jars) raises ``WapiiError``; the reason is its message."""
    import pytest

    from wapii_core.kits.jvm import find_jdk
    from wapii_core.base.errors import WapiiError

    try:
        for find in (find_jdk, *more):
            find()
    except WapiiError as exc:
        pytest.skip(str(exc))


LARGE_SPEC = Path(os.environ.get("WAPII_LARGE_SPEC", Path.home() / ".cache" / "wapii" / "bench" /
                                 "octokit-openapi-23.0.2" / "api.github.com.json"))
"""GitHub's description as ``benchmarks/bench_large_spec.py`` fetches it (tests that need it skip without it)."""


def run_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
            timeout: float = 600) -> subprocess.CompletedProcess:
    """Run ``python -m wapii_core`` as a user would run ``wapii``."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "wapii_core", *args], cwd=cwd, env=full_env,
                          capture_output=True, text=True, timeout=timeout)


@dataclasses.dataclass
class CliResult:
    """What :func:`run_cli_in_process` returns: the fields of :class:`subprocess.CompletedProcess`
    that the tests read, so that a test can switch between the two."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str

    @property
    def exit_code(self) -> int:
        return self.returncode


def run_cli_in_process(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> CliResult:
    """``wapii ARGS`` in this process, as :func:`run_cli` runs it in a fresh one, less the start-up
    (the commands and plugins are loaded once per test process): ``wapii_core.cli.invoke``, the entry
    point ``main`` calls, with ``env`` added to the environment and ``cwd`` as the working directory
    for the call, its stdout and stderr captured. A bad input is its one ``error:`` line and exit code
    2, ``--require-isolation``, signal handlers, environment and working directory are as before
    after the call.

    Use it where the process boundary is not what the test is about; :func:`run_cli` where it is
    (signals, the exit of the process, what a fresh process loads, output that child processes
    write straight to the inherited stderr)."""
    import contextlib
    import io

    from wapii_core.cli import invoke

    out, err = io.StringIO(), io.StringIO()
    saved_env = {key: os.environ.get(key) for key in env or {}}
    saved_cwd = os.getcwd()
    try:
        os.environ.update(env or {})
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = invoke(list(args))
    finally:
        os.chdir(saved_cwd)
        for key, value in saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return CliResult(list(args), code, out.getvalue(), err.getvalue())


def sha256_of(path: Path) -> str:
    """The sha256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def same(a, b) -> bool:
    """Equal, with the same types and key order all the way down (1 == 1.0 == True would hide a lossy cache)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


def adapter_capabilities() -> dict:
    """``{name: AdapterCapabilities}`` of every registered adapter (each created, never started)."""
    from wapii_core.base import plugins

    found = {}
    for name in plugins.adapters.names():
        adapter = plugins.adapters.get(name)()
        try:
            found[name] = adapter.capabilities
        finally:
            adapter.close()
    return found


def adapters_where(**wanted) -> list[str]:
    """The registered adapters whose capabilities hold every ``field=value`` of ``wanted`` (a tuple
    value: any of its items), e.g. ``adapters_where(language="python")``, ``adapters_where(constrained=True)``:
    tests ask the adapters what they can do instead of listing them by name."""
    def fits(capabilities, field, value):
        have = getattr(capabilities, field)
        return have in value if isinstance(value, tuple) else have == value

    return [name for name, capabilities in adapter_capabilities().items()
            if all(fits(capabilities, field, value) for field, value in wanted.items())]


def grammar_adapter(name: str):
    """A context giving an instance of adapter ``name`` for a grammar test (closed after it); the test
    is skipped when no grammar engine or that adapter is installed."""
    import contextlib

    import pytest

    from wapii_core.base import plugins
    from wapii_core.grammar import get_engine

    if get_engine() is None:
        pytest.skip("no grammar engine installed")
    if name not in plugins.adapters.names():
        pytest.skip(f"adapter {name} is not installed")
    return contextlib.closing(plugins.adapters.get(name)())


def without_sandbox_warnings(stderr: str) -> str:
    """``stderr`` less the warnings a run prints when it starts its workers with a sandbox layer
    missing (``warning: node sandbox without bubblewrap (...)``): on a machine without bubblewrap a
    run that judges anything prints them, before whatever the test looks for."""
    return "".join(line for line in stderr.splitlines(keepends=True)
                   if not (line.startswith("warning: ") and " sandbox without " in line))


def benign_problems(benign, alone: dict, mixed: dict) -> list[str]:
    """Each ordinary program (``benign`` sample ids) whose verdict in a run mixed with hostile
    programs (``mixed``: results by sample id) differs from its verdict in a run of its own (``alone``)."""
    return [f"{sid} after a hostile program: {mixed[sid]['verdict']} {mixed[sid]['error_detail']}, "
            f"alone: {alone[sid]['verdict']}"
            for sid in benign
            if (mixed[sid]["verdict"], mixed[sid]["error"]) != (alone[sid]["verdict"], alone[sid]["error"])]


def hostile_problems(expect: dict, mixed: dict, errors: tuple[str, ...] = ("runtime_error",)) -> list[str]:
    """Each hostile program (``expect``: sample id -> (name, expectation)) judged correct, or expected
    to end in one of ``errors`` (``a|b``: in either) and judged otherwise."""
    problems = []
    for sid, (name, expectation) in expect.items():
        result = mixed[sid]
        allowed = expectation.split("|")
        if result["verdict"] == "correct":
            problems.append(f"{name}: judged correct")
        elif all(one in errors for one in allowed) and result["error"] not in allowed:
            problems.append(f"{name}: expected {expectation}, got {result['verdict']} {result['error']} "
                            f"{result['error_detail']}")
    return problems


HANG_GUARD_S = 120
"""How long :func:`returns` waits for a call that, on a bug, would never return (a guard that turns a
hang into a failure, not a measure of speed: no test compares a time it measured against a bound)."""


def returns(work: Callable[..., Any], *args: Any) -> Any:
    """``work(*args)`` run on a thread: its result, or a failed test where it never returns."""
    out: list[Any] = []
    errors: list[BaseException] = []

    def call() -> None:
        try:
            out.append(work(*args))
        except BaseException as exc:  # noqa: BLE001 - raised again on the test's thread
            errors.append(exc)

    thread = threading.Thread(target=call, name="wapii-test-returns", daemon=True)
    thread.start()
    thread.join(HANG_GUARD_S)
    if errors:
        raise errors[0]
    assert out, f"{getattr(work, '__qualname__', work)} never returned"
    return out[0]


def wait_until(condition: Callable[[], Any], what: str) -> None:
    """Polls ``condition`` until it holds; a failed test naming ``what`` where it never does (within
    :data:`HANG_GUARD_S`: a guard against hanging, not a measure)."""
    deadline = time.monotonic() + HANG_GUARD_S
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.02)
