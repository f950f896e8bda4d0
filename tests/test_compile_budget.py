"""Compilers under a budget (:mod:`wapii_core.sandbox.compile_budget`): a run past its time or memory
is a result, never an exception, and leaves nothing running; the search that finds the programs
that make a batch fail leaves every other program's outcome its own."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from wapii_core.base.errors import WapiiError
from wapii_core.sandbox.compile_budget import CompileAttempt, CompileBudget, isolate_failures, run_compiler
from wapii_core.sandbox.limits import MiB


def _ends(pid: int) -> bool:
    """Whether process ``pid`` ends (gone or a zombie) soon after being killed (SIGKILL is delivered
    asynchronously: a few looks at it, a moment apart)."""
    import time

    for _ in range(200):
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


def _python(code: str, budget: CompileBudget, tmp_path: Path, programs: int = 1):
    return run_compiler([sys.executable, "-I", "-S", "-c", code], cwd=tmp_path, env={"PATH": "/usr/bin:/bin"},
                        budget=budget, programs=programs)


def test_a_compiler_past_its_share_of_time_is_a_result_and_leaves_nothing_running(tmp_path: Path) -> None:
    code = ("import os, subprocess, sys, time\n"
            "child = subprocess.Popen(['/bin/sleep', '600'])\n"
            "open('child', 'w').write(str(child.pid))\n"
            "sys.stdout.flush()\n"
            "time.sleep(600)\n")
    run = _python(code, CompileBudget(base_s=0.5, per_program_s=0.1), tmp_path, programs=3)
    assert run.limit == "the compiler ran longer than its 0.8 s" and run.returncode != 0
    assert _ends(int((tmp_path / "child").read_text()))  # the compiler's whole session is killed with it


def test_a_compiler_past_its_memory_is_a_result(tmp_path: Path) -> None:
    run = _python("b = bytearray(512 << 20)\nprint('allocated')", CompileBudget(memory=128 * MiB), tmp_path)
    assert run.returncode != 0 and b"allocated" not in run.stdout
    assert run.limit == "the compiler ran out of its 128 MiB of memory"


def test_a_compiler_within_its_budget_gives_its_output(tmp_path: Path) -> None:
    run = run_compiler(["/bin/sh", "-c", "cat; echo err >&2; exit 1"], cwd=tmp_path, env={"PATH": "/usr/bin:/bin"},
                       budget=CompileBudget(), programs=1, stdin=b"in")
    assert (run.returncode, run.stdout, run.stderr, run.limit) == (1, b"in", b"err\n", None)


def test_the_budget_comes_from_the_environment_and_a_bad_value_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WAPII_COMPILE_MEMORY_MB", "300")
    monkeypatch.setenv("WAPII_COMPILE_BASE_S", "2")
    monkeypatch.setenv("WAPII_COMPILE_PER_PROGRAM_S", "0.25")
    budget = CompileBudget.from_env()
    assert (budget.memory, budget.seconds(8)) == (300 * MiB, 4.0)
    monkeypatch.setenv("WAPII_COMPILE_BASE_S", "soon")
    with pytest.raises(WapiiError) as raised:
        CompileBudget.from_env()
    assert str(raised.value) == "$WAPII_COMPILE_BASE_S must be a positive number, not 'soon'"


def test_the_defaults_hold_every_compiler_far_below_the_machine() -> None:
    budget = CompileBudget()
    assert budget.memory == 1024 * MiB and budget.seconds(64) == 62.0


def _search(units: list[int], silent: set[int], named: dict[int, str]):
    """Runs the search over ``units`` where a group holding one of ``silent`` fails naming none,
    one holding a unit of ``named`` fails naming those; returns what it found, the groups that
    compiled and the groups it tried."""
    compiled: list[list[int]] = []
    tried: list[list[int]] = []

    def attempt(group: list[int]) -> CompileAttempt:
        tried.append(list(group))
        blamed = {unit: named[unit] for unit in group if unit in named}
        if blamed:
            return CompileAttempt(blamed=blamed)
        if silent & set(group):
            return CompileAttempt(unexplained="compile_limit: out of time")
        compiled.append(list(group))
        return CompileAttempt()

    return isolate_failures(units, attempt), compiled, tried


def test_the_search_leaves_only_the_culprits_without_a_verdict() -> None:
    units = list(range(64))
    found, compiled, tried = _search(units, silent={5, 40}, named={17: "compile_error: line 3"})
    assert found.failed == {5: "compile_limit: out of time", 40: "compile_limit: out of time", 17: "compile_error: line 3"}
    assert sorted(unit for group in compiled for unit in group) == [u for u in units if u not in (5, 17, 40)]
    assert found.attempts == len(tried) <= 2 + 2 * 2 * 6  # two culprits: a few runs per halving of 64


def test_a_batch_that_compiles_costs_one_run_and_an_empty_one_none() -> None:
    found, compiled, _ = _search(list(range(10)), silent=set(), named={})
    assert (found.failed, found.attempts, compiled) == ({}, 1, [list(range(10))])
    assert _search([], silent=set(), named={})[0].attempts == 0


def test_the_search_is_bounded() -> None:
    everyone = set(range(32))
    found, compiled, tried = _search(list(range(32)), silent=everyone, named={})
    assert set(found.failed) == everyone and compiled == [] and len(tried) == 63  # each group once: 2n - 1
    capped = isolate_failures(list(range(32)), lambda group: CompileAttempt(unexplained="compile_limit: x"),
                              max_attempts=5)
    assert capped.attempts == 5 and set(capped.failed) == everyone
    assert all(error.startswith("compile_limit: ") for error in capped.failed.values())


def test_tasks_left_by_a_compiler_count_against_nobody_after_it(tmp_path: Path) -> None:
    run = run_compiler(["/bin/sh", "-c", "sleep 600 >/dev/null 2>&1 & echo $!"], cwd=tmp_path, env={"PATH": "/usr/bin:/bin"},
                       budget=CompileBudget(), programs=1)
    assert run.limit is None and _ends(int(run.stdout))


@pytest.mark.parametrize("layers", ["bubblewrap", "no-bubblewrap"])
def test_a_compiler_reads_and_writes_only_its_file_view_and_reaches_no_network(
        layers: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Inside its view a compiler reads its toolchain, writes its batch; another batch's files, the
    rest of the host and the network are out of its reach (bubblewrap, or Landlock without it)."""
    import socket

    from wapii_core.sandbox import bwrap, landlock
    from wapii_core.sandbox.compile_budget import confinement

    if layers == "no-bubblewrap":
        monkeypatch.setenv(bwrap.BWRAP_ENV, "")
    expected = "bubblewrap" if layers == "bubblewrap" else "landlock"
    if confinement() != expected:
        pytest.skip(f"{expected} does not work here")
    toolchain, own, other = tmp_path / "toolchain", tmp_path / "own", tmp_path / "other"
    for path in (toolchain, own, other):
        path.mkdir()
    (toolchain / "lib").write_text("toolchain")
    (other / "source").write_text("another batch's source")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    script = ("cat toolchain/lib; echo; echo built > own/out && echo wrote own\n"
              "cat other/source 2>/dev/null && echo READ OTHER\n"
              "echo x > other/planted 2>/dev/null && echo WROTE OTHER\n"
              "echo x > toolchain/planted 2>/dev/null && echo WROTE TOOLCHAIN\n"
              "cat /etc/hostname 2>/dev/null && echo READ HOST\n"
              f"(exec 3<>/dev/tcp/127.0.0.1/{port}) 2>/dev/null && echo CONNECTED\n")
    bash = "/bin/bash"
    try:
        run = run_compiler([bash, "-c", f"cd {tmp_path} && {{ {script} }}"], cwd=own, env={"PATH": "/usr/bin:/bin"},
                           budget=CompileBudget(), programs=1, read=[toolchain], write=[own])
    finally:
        server.close()
    assert run.stdout.decode().split("\n")[:2] == ["toolchain", "wrote own"], run.stderr
    assert "READ" not in run.stdout.decode() and "WROTE" not in run.stdout.decode()
    assert "CONNECTED" not in run.stdout.decode() or landlock.abi() < 4 and layers == "no-bubblewrap"
    assert (own / "out").read_text() == "built\n"
    assert sorted(p.name for p in other.iterdir()) == ["source"] and sorted(p.name for p in toolchain.iterdir()) == ["lib"]
