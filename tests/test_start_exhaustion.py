"""The crash-loop breaker tells a worker that cannot start for lack of processes (transient: waited
for) from a broken installation (told after a few tries)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from wapii_core.sandbox import supervisor
from wapii_core.sandbox.launch import Plan
from wapii_core.sandbox.supervisor import Supervisor, WorkerStartError, exhaustion

READY = "import sys, json; sys.stdin.readline(); print(json.dumps({'ready': True}), flush=True); sys.stdin.read()"


def test_exhaustion_is_told_from_a_broken_installation() -> None:
    assert exhaustion(WorkerStartError("setpriv: failed to execute /usr/bin/node: Resource temporarily unavailable"))
    assert exhaustion(WorkerStartError("RuntimeError: can't start new thread"))
    assert not exhaustion(WorkerStartError("ModuleNotFoundError: No module named 'requests'"))


def test_a_start_failing_for_exhaustion_is_retried_until_the_slots_free(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    marker = tmp_path / "failures"
    marker.write_text("3")
    script = ("import sys, pathlib\n"
              f"m = pathlib.Path({str(marker)!r}); n = int(m.read_text())\n"
              "if n > 0:\n"
              "    m.write_text(str(n - 1)); sys.stderr.write('BlockingIOError: Resource temporarily unavailable\\n'); sys.exit(1)\n"
              f"exec({READY!r})\n")
    plan = Plan(argv=[sys.executable, "-c", script], env={}, limits={}, layers=[])
    monkeypatch.setattr(supervisor, "START_ATTEMPTS", 2)  # fewer than the exhausted starts: only waiting helps
    pool = Supervisor("exhausted", lambda: plan, size=1, timeout=2.0, init={})
    try:
        pool.start(1)
        pool._worker(0)
        assert marker.read_text() == "0"
    finally:
        pool.close()


def test_a_broken_installation_is_told_after_a_few_tries() -> None:
    plan = Plan(argv=[sys.executable, "-c", "import sys; sys.stderr.write('No module named x\\n'); sys.exit(1)"],
                env={}, limits={}, layers=[])
    pool = Supervisor("broken", lambda: plan, size=1, timeout=2.0, init={})
    try:
        pool.start(1)
        with pytest.raises(WorkerStartError, match="No module named x"):
            pool._worker(0)
    finally:
        pool.close()
