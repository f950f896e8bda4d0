"""No test asserts on wall-clock time: a loaded CI machine would turn it red by chance.

A test proves "concurrent" or "returns early" with events and counts (``support.returns``,
``support.wait_until``, gates and barriers); how fast something is belongs to a script under
``benchmarks/``. This reads every test module's source and fails on an ``assert`` that compares a
value read from ``time.perf_counter`` / ``time.monotonic`` / ``time.time`` (directly, or through a
name assigned from one) against anything.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLOCKS = {"perf_counter", "monotonic", "time", "perf_counter_ns", "monotonic_ns", "time_ns"}


def _reads_clock(node: ast.AST, timed: set[str]) -> bool:
    for inner in ast.walk(node):
        if (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr in CLOCKS
                and isinstance(inner.func.value, ast.Name) and inner.func.value.id == "time"):
            return True
        if isinstance(inner, ast.Name) and inner.id in timed:
            return True
    return False


def clock_asserts(source: str, filename: str) -> list[int]:
    """Line numbers of the asserts in ``source`` that compare a clock reading."""
    tree = ast.parse(source, filename)
    timed: set[str] = set()
    changed = True
    while changed:  # names assigned from clock readings, or from names that are
        changed = False
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if _reads_clock(node.value, timed):
                    for target in targets:
                        for name in ast.walk(target):
                            if isinstance(name, ast.Name) and name.id not in timed:
                                timed.add(name.id)
                                changed = True
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Assert)
            and any(isinstance(part, ast.Compare) and _reads_clock(part, timed) for part in ast.walk(node.test))]


def test_the_checker_finds_a_stopwatch_and_leaves_events_alone() -> None:
    stopwatch = ("import time\nstart = time.monotonic()\nwork()\nspent = time.monotonic() - start\n"
                 "assert spent < 0.5\n"
                 "now = time.perf_counter()\n"
                 "assert now - start < 2\n")
    events = "done = event.wait(60)\nassert done\nassert len(calls) == 2\n"
    assert clock_asserts(stopwatch, "stopwatch.py") == [5, 7]
    assert clock_asserts(events, "events.py") == []


def test_no_test_asserts_on_wall_clock_time() -> None:
    found = []
    for path in sorted([*ROOT.glob("tests/**/test_*.py"), *ROOT.glob("plugins/*/tests/**/test_*.py")]):
        found += [f"{path.relative_to(ROOT)}:{line}" for line in clock_asserts(path.read_text(), str(path))]
    assert found == [], "asserts on wall-clock time (prove it with events and counts, or move it to benchmarks/)"
