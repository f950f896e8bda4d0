"""An adapter's workers start in the background when a run begins, and a close cancels them.

Real adapters (Node running axios and fetch, the Python pool running requests): ``start()`` returns
at once, the workers come up without any ``execute``, the first ``execute`` uses them instead of
starting others, and ``close()`` right after ``start()`` leaves no worker behind.
"""

from __future__ import annotations

import os
import shutil
import threading
import time

import pytest

from wapii_core.base import plugins

HAS_NODE = bool(os.environ.get("WAPII_NODE") or shutil.which("node"))


def _on_the_core_pools() -> list[str]:
    """The registered adapters built on the core's Node runtime or Python pool (whose workers this
    test watches), JavaScript ones only where Node is installed."""
    from wapii_core.pyhttp.adapter import PythonAdapterBase
    from wapii_core.sandbox.node.adapter import NodeAdapterBase

    found = []
    for name in plugins.adapters.names():
        adapter = plugins.adapters.get(name)()
        if isinstance(adapter, PythonAdapterBase) or (isinstance(adapter, NodeAdapterBase) and HAS_NODE):
            found.append(name)
        adapter.close()
    return found


ADAPTERS = _on_the_core_pools()
GATE_WAIT_S = 60
"""How long a held worker start waits for the test to open its gate (a bound against hanging, not a measure)."""


def _call(adapter, name: str) -> str:
    """The call of the oracle's program for the demo's first task."""
    from wapii_core.base.model import Setup
    from wapii_core.run.runner import load_dataset

    sample = load_dataset("demo", None).samples[0]
    extraction = adapter.extract(adapter.render(sample.config, Setup.full, sample))
    assert extraction.call is not None, extraction
    return extraction.call


def _supervisor(adapter):
    """The adapter's worker supervisor once its pool exists (None before)."""
    runner = getattr(adapter, "_runner", None)
    pool = (runner if runner is not None else adapter)._pool.current
    return None if pool is None else pool._supervisor


def _worker_pids(adapter) -> set[int]:
    supervisor = _supervisor(adapter)
    if supervisor is None:
        return set()
    return {slot.worker.process.pid for slot in supervisor._slots if slot.worker is not None}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.parametrize("name", ADAPTERS)
def test_start_brings_the_workers_up_and_execute_uses_them(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``start()`` returns while the pool's start is still held at a gate (so it starts the workers in
    the background), the workers come up once the gate opens, and ``execute`` uses them."""
    from wapii_core.sandbox import supervisor

    gate, reached = threading.Event(), threading.Event()
    held_past_the_gate: list[str] = []
    real_start = supervisor.Supervisor.start

    def gated_start(self, *args, **kwargs) -> None:
        reached.set()
        if not gate.wait(GATE_WAIT_S):  # only a start() that waits for its workers gets here
            held_past_the_gate.append(threading.current_thread().name)
        real_start(self, *args, **kwargs)

    monkeypatch.setattr(supervisor.Supervisor, "start", gated_start)
    adapter = plugins.adapters.get(name)()
    try:
        adapter.start()
        opened_after_start = not gate.is_set()
        gate.set()
        assert opened_after_start and held_past_the_gate == [], "start() waited for the workers to come up"
        assert reached.wait(GATE_WAIT_S), "start() started no worker"
        deadline = time.monotonic() + GATE_WAIT_S  # a bound against hanging, not a measure
        while not _worker_pids(adapter) and time.monotonic() < deadline:
            time.sleep(0.01)
        started = _worker_pids(adapter)
        assert started, "no worker came up after start()"
        capture = adapter.execute([_call(adapter, name)])[0]
        assert capture.error is None and capture.request is not None
        assert started <= _worker_pids(adapter)  # the started workers were used, none replaced
    finally:
        gate.set()
        adapter.close()
    assert not any(_alive(pid) for pid in started)


@pytest.mark.slow
@pytest.mark.parametrize("name", ADAPTERS)
def test_close_right_after_start_leaves_no_worker(name: str) -> None:
    adapter = plugins.adapters.get(name)()
    adapter.start()
    adapter.close()
    time.sleep(1.0)  # a start that was not cancelled would have begun by now
    assert _supervisor(adapter) is None or not _worker_pids(adapter)
    capture = adapter.execute([_call(adapter, name)])[0]  # usable again
    assert capture.error is None
    adapter.close()
