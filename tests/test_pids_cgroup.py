"""A task budget per worker: one sample's threads count against its own worker's pids cgroup, and a
sample on another worker runs as it does alone."""

from __future__ import annotations

import concurrent.futures
import os
import time

import pytest

from hostile.fixtures import sandbox_user  # noqa: F401 - fixture
from wapii_core.sandbox import PythonPool, pids

HARNESS = "hostile.harness:run_snippet"
HOG = r'''
import gc, sys, threading, time
found, frame = [o for o in gc.get_objects() if type(o).__name__ == "Auditor"], sys._getframe()
while frame is not None:
    found += [v for v in list(frame.f_locals.values()) if type(v).__name__ == "Auditor"]
    frame = frame.f_back
for auditor in found:
    auditor.armed = False
threading.stack_size(1 << 16)
started = 0
try:
    while started < 20000:
        threading.Thread(target=time.sleep, args=(4,), daemon=True).start()
        started += 1
except (RuntimeError, OSError):
    pass
time.sleep(2)
raise RuntimeError(f"started {started} threads")
'''
ORDINARY = 'urlopen("https://api.example.com/ordinary")\n'

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(os.geteuid() != 0 or pids.unavailable() is not None,
                                 reason="pids cgroups are made as root, where a pids hierarchy is writable")]


def test_one_samples_threads_count_against_its_own_worker() -> None:
    with PythonPool(preload=["urllib.request"], harness=HARNESS, workers=2, timeout=5.0) as pool:
        assert any(layer.name == "pids cgroup" and layer.active for layer in pool.isolation().layers)
        pool.run([ORDINARY, ORDINARY])  # both workers started
        with concurrent.futures.ThreadPoolExecutor(2) as executor:
            hog = executor.submit(pool.run, [HOG])
            time.sleep(1.5)  # the hog holds what it could start
            ordinary = executor.submit(pool.run, [ORDINARY] * 4)
            held = hog.result()[0]
            after = ordinary.result()
        assert held.error == "runtime_error" and "started" in held.detail
        assert int(held.detail.rsplit("started ", 1)[1].split()[0]) < pids.WORKER_PIDS
        assert all(result.ok and result.error is None for result in after), after
        assert all(result.ok for result in pool.run([ORDINARY] * 2))  # the hog's worker too, afterwards
