"""The worker supervisor with a scripted worker: ordering, timeouts, deaths, restarts, the breaker."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest
from support import HANG_GUARD_S, returns

from wapii_core.sandbox import Plan, Supervisor, WorkerStartError
from wapii_core.sandbox.supervisor import MAX_LINE

FAKE_WORKER = r'''
import json, os, subprocess, sys, time
init = json.loads(sys.stdin.readline()) if "--init" in sys.argv else None
if "--no-ready" in sys.argv:
    sys.exit(3)
print(json.dumps({"ready": True, "pid": os.getpid(), "init": init}), flush=True)
for line in sys.stdin:
    job = json.loads(line)
    action = job["action"]
    if action == "echo":
        answer = {"value": job["value"], "pid": os.getpid(), "timeout_ms": job["timeout_ms"]}
    elif action == "hang":
        if job.get("pidfile"):
            with open(job["pidfile"], "w") as out:
                out.write(str(os.getpid()))
        time.sleep(3600)
    elif action == "exit":
        print("worker: exiting on request", file=sys.stderr, flush=True)
        os._exit(7)
    elif action == "spawn":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        answer = {"child": child.pid}
    elif action == "flood":
        sys.stdout.write("x" * (job["size"]) + "\n")
        sys.stdout.flush()
        continue
    print(json.dumps({"id": job["id"], **answer}), flush=True)
'''


def fake_plan(tmp_path: Path, *flags: str) -> Plan:
    script = tmp_path / "fake_worker.py"
    script.write_text(FAKE_WORKER)
    return Plan(argv=[sys.executable, str(script), *flags], env=dict(os.environ), limits={}, layers=[])


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    return status != "Z"


@pytest.fixture
def supervisor(tmp_path: Path):
    instance = Supervisor("fake", lambda: fake_plan(tmp_path), size=2, timeout=0.5, grace=0.3, ready_timeout=10)
    yield instance
    instance.close()


def test_answers_come_back_in_order_from_every_worker(supervisor: Supervisor) -> None:
    answers = supervisor.run([{"action": "echo", "value": n} for n in range(40)])
    assert [a["value"] for a in answers] == list(range(40))
    assert len({a["pid"] for a in answers}) == 2
    assert {a["timeout_ms"] for a in answers} == {500}
    assert all("id" not in a for a in answers)


def test_a_hung_worker_is_killed_at_the_hard_deadline_and_replaced(supervisor: Supervisor, tmp_path: Path) -> None:
    pidfile = tmp_path / "hung.pid"
    hung = returns(supervisor.run, [{"action": "hang", "pidfile": str(pidfile)},
                                   {"action": "echo", "value": 1}])[0]
    assert hung["error"] == "timeout" and "killed" in hung["detail"]
    assert not alive(int(pidfile.read_text())), "the hung worker was left running"
    after = supervisor.run([{"action": "echo", "value": 2}] * 2)
    assert [a["value"] for a in after] == [2, 2]


def test_a_dead_worker_is_reported_and_replaced(supervisor: Supervisor) -> None:
    died, after = supervisor.run([{"action": "exit"}, {"action": "echo", "value": 1}])
    assert died["error"] == "worker_died"
    assert "exited with code 7" in died["detail"] and "exiting on request" in died["detail"]
    assert after["value"] == 1
    assert [a["value"] for a in supervisor.run([{"action": "echo", "value": 3}] * 3)] == [3, 3, 3]


def test_killing_a_worker_kills_what_it_started(supervisor: Supervisor) -> None:
    child = supervisor.run([{"action": "spawn"}])[0]["child"]
    assert alive(child)
    assert supervisor.run([{"action": "hang"}])[0]["error"] == "timeout"
    deadline = time.monotonic() + 5
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child)


def test_close_stops_every_worker(tmp_path: Path) -> None:
    instance = Supervisor("fake", lambda: fake_plan(tmp_path), size=2, timeout=1, ready_timeout=10)
    pids = {a["pid"] for a in instance.run([{"action": "echo", "value": n} for n in range(6)])}
    instance.close()
    assert not any(alive(pid) for pid in pids)
    assert instance.run([{"action": "echo", "value": 1}])[0]["value"] == 1  # usable again
    instance.close()


def test_the_init_line_reaches_every_worker(tmp_path: Path) -> None:
    instance = Supervisor("fake", lambda: fake_plan(tmp_path, "--init"), size=1, timeout=1, init={"hello": 1})
    try:
        instance.run([{"action": "echo", "value": 1}])
        assert instance.info["init"] == {"hello": 1}
    finally:
        instance.close()


def test_a_worker_that_never_starts_stops_the_batch(tmp_path: Path) -> None:
    calls = []

    def start():
        calls.append(1)
        return fake_plan(tmp_path, "--no-ready")

    instance = Supervisor("fake", start, size=1, timeout=1, ready_timeout=5)
    with pytest.raises(WorkerStartError, match="did not start"):
        instance.run([{"action": "echo", "value": 1}])
    assert len(calls) == 3
    instance.close()


def test_an_overlong_answer_ends_the_worker(supervisor: Supervisor) -> None:
    flood, after = supervisor.run([{"action": "flood", "size": MAX_LINE + 10}, {"action": "echo", "value": 5}])
    assert flood["error"] == "worker_died" and "longer than" in flood["detail"]
    assert after["value"] == 5


def test_an_empty_batch_starts_nothing(tmp_path: Path) -> None:
    instance = Supervisor("fake", lambda: pytest.fail("started a worker"), size=2)
    assert instance.run([]) == []


def test_start_brings_workers_up_in_the_background_and_run_uses_them(tmp_path: Path) -> None:
    """``start()`` returns while every worker's start is held at a gate (the plan is made on the start
    threads), the workers come up once it opens, and ``run`` uses them."""
    gate, held = threading.Event(), []

    def gated_plan() -> Plan:
        if not gate.wait(HANG_GUARD_S):  # only a start() that waits for its workers gets here
            held.append(threading.current_thread().name)
        return fake_plan(tmp_path)

    instance = Supervisor("fake", gated_plan, size=2, timeout=1, ready_timeout=10)
    started: set[int] = set()
    try:
        instance.start()
        opened_after_start = not gate.is_set()
        gate.set()
        assert opened_after_start and held == [], "start() waited for its workers"
        deadline = time.monotonic() + HANG_GUARD_S  # a bound against hanging, not a measure
        while not all(slot.worker is not None for slot in instance._slots) and time.monotonic() < deadline:
            time.sleep(0.02)
        started = {slot.worker.process.pid for slot in instance._slots}
        assert len(started) == 2 and all(alive(pid) for pid in started)
        answers = instance.run([{"action": "echo", "value": n} for n in range(10)])
        assert {a["pid"] for a in answers} <= started  # the started workers, not new ones
        assert {slot.worker.process.pid for slot in instance._slots} == started
    finally:
        gate.set()
        instance.close()
    assert not any(alive(pid) for pid in started)
