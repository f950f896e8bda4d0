"""A worker that cannot start never ends a run without its files: the programs it would have run are
``worker_start_failed`` runtime errors, marked provisional, the run writes summary.json and report.md
and ends in one line (exit 3), and running the same command again (or ``wapii evaluate``) judges
them as a clean run does. A slot whose worker cannot start leaves its jobs to the slots that run."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import pytest

from test_first_hour import wapii

from wapii_core.sandbox.launch import Plan
from wapii_core.sandbox.supervisor import Supervisor, WorkerStartError

BROKEN = [sys.executable, "-c", "import sys; sys.stderr.write('ModuleNotFoundError: No module named wapii_gone\\n'); "
                                "sys.exit(1)"]
READY = ("import sys, json\nsys.stdin.readline(); print(json.dumps({'ready': True}), flush=True)\n"
         "for line in sys.stdin:\n    print(json.dumps({'id': json.loads(line)['id'], 'ok': True}), flush=True)\n")
RUN = ("run", "-a", "requests_py", "--limit", "6", "--quiet")


def _broken_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Plan, "command", lambda self: list(BROKEN))


def _verdicts(run_dir: Path) -> dict[str, tuple]:
    latest = {}
    for line in (run_dir / "results.jsonl").read_text().splitlines():
        result = json.loads(line)
        latest[f"{result['sample']}#{result['draw']}"] = result
    return {key: (r["verdict"], r["error"], r.get("provisional", False), json.dumps(r["request"], sort_keys=True))
            for key, r in latest.items()}


@pytest.mark.slow
def test_a_run_whose_workers_cannot_start_keeps_its_files_and_a_resume_judges_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clean = wapii(*RUN, "--out", tmp_path / "clean")
    assert clean.code == 0, clean.stderr
    with monkeypatch.context() as patch:
        _broken_workers(patch)
        broken = wapii(*RUN, "--out", tmp_path / "run")
    assert broken.code == 3
    told = [line for line in broken.stderr.splitlines() if line.startswith("error:")]
    assert len(told) == 1 and "6 of 6 programs did not run" in told[0]
    assert "worker_start_failed" in told[0] and "No module named wapii_gone" in told[0]
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["complete"] is False and summary["not_executed"] == 6 and summary["judged"] == 6
    assert summary["overall"]["counts"]["runtime_error"] == 6
    assert (tmp_path / "run" / "report.md").is_file()
    assert {v[:3] for v in _verdicts(tmp_path / "run").values()} == {("nonexecutable", "runtime_error", True)}

    resumed = wapii(*RUN, "--out", tmp_path / "run")
    assert resumed.code == 0, resumed.stderr
    assert json.loads((tmp_path / "run" / "summary.json").read_text())["complete"] is True
    assert _verdicts(tmp_path / "run") == _verdicts(tmp_path / "clean")


@pytest.mark.slow
def test_evaluate_judges_again_what_did_not_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patch:
        _broken_workers(patch)
        assert wapii(*RUN, "--out", tmp_path / "run").code == 3
        again = wapii("evaluate", tmp_path / "run", "--quiet")
        assert again.code == 3 and "did not run" in again.stderr
    evaluated = wapii("evaluate", tmp_path / "run", "--quiet")
    assert evaluated.code == 0, evaluated.stderr
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["complete"] is True and summary["not_executed"] == 0
    assert not any(v[2] for v in _verdicts(tmp_path / "run").values())


def test_a_slot_whose_worker_cannot_start_leaves_its_jobs_to_the_others() -> None:
    def plan() -> Plan:
        broken = threading.current_thread().name.endswith("-0")  # slot 0's starts fail, slot 1's succeed
        return Plan(argv=BROKEN if broken else [sys.executable, "-c", READY], env={}, limits={}, layers=[])

    pool = Supervisor("halfbroken", plan, size=2, timeout=5.0, init={})
    try:
        answers = pool.run([{"n": n} for n in range(8)])
        assert [a.get("ok") for a in answers] == [True] * 8
    finally:
        pool.close()


def test_a_batch_no_worker_can_take_is_told() -> None:
    pool = Supervisor("broken", lambda: Plan(argv=BROKEN, env={}, limits={}, layers=[]), size=2, timeout=5.0, init={})
    try:
        with pytest.raises(WorkerStartError, match="wapii_gone"):
            pool.run([{"n": n} for n in range(3)])
    finally:
        pool.close()





def test_a_limit_that_stays_exhausted_is_told_as_such(monkeypatch: pytest.MonkeyPatch) -> None:
    from wapii_core.sandbox import supervisor

    monkeypatch.setattr(supervisor, "EXHAUSTED_WAIT_S", 0.5)
    exhausted = [sys.executable, "-c", "import sys; sys.stderr.write('BlockingIOError: [Errno 11] Resource "
                                       "temporarily unavailable\\n'); sys.exit(1)"]
    pool = Supervisor("exhausted", lambda: Plan(argv=exhausted, env={}, limits={}, layers=[]), size=1, timeout=5.0,
                      init={})
    try:
        with pytest.raises(WorkerStartError, match="stayed exhausted"):
            pool.run([{"n": 0}])
    finally:
        pool.close()
