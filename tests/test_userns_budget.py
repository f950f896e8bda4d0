"""A task budget per worker without a pids cgroup: each worker's own user namespace, where
RLIMIT_NPROC counts its own tasks alone. One sample's threads spend its worker's budget; a sample on
another worker runs as it does alone, and so do samples while another process of the same user holds
hundreds of threads. With the namespace switched off (WAPII_USERNS=0) those samples cannot start:
the budget is shared, which is what the namespace prevents. (As root the workers drop to the
sandbox user; run as an ordinary user, the same tests hold for that user.)"""

from __future__ import annotations

import concurrent.futures
import os
import subprocess
import time

import pytest

from hostile.fixtures import sandbox_user  # noqa: F401 - fixture
from test_pids_cgroup import HARNESS, HOG, ORDINARY
from wapii_core.sandbox import PythonPool, userns

pytestmark = [pytest.mark.slow]


def _hog_beside_ordinary(pool: PythonPool) -> tuple:
    pool.run([ORDINARY, ORDINARY])  # both workers started
    with concurrent.futures.ThreadPoolExecutor(2) as executor:
        hog = executor.submit(pool.run, [HOG])
        time.sleep(1.5)  # the hog holds what it could start
        ordinary = executor.submit(pool.run, [ORDINARY] * 4)
        return hog.result()[0], ordinary.result()


def _layer(pool: PythonPool, name: str) -> bool:
    return any(layer.name == name and layer.active for layer in pool.isolation().layers)


def _skip_without_namespace(pool: PythonPool) -> None:
    """Skips where the layer is off by design (as root without bubblewrap), saying why."""
    for layer in pool.isolation().layers:
        if layer.name == "user namespace budget" and not layer.active:
            pytest.skip(layer.detail)


def test_one_samples_threads_count_against_its_own_namespace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WAPII_PIDS_CGROUP", "0")
    if userns.unavailable() is not None:
        pytest.skip(f"no user namespace here: {userns.unavailable()}")
    with PythonPool(preload=["urllib.request"], harness=HARNESS, workers=2, timeout=5.0) as pool:
        _skip_without_namespace(pool)
        assert not _layer(pool, "pids cgroup")
        held, after = _hog_beside_ordinary(pool)
        assert held.error == "runtime_error" and "started" in held.detail
        assert int(held.detail.rsplit("started ", 1)[1].split()[0]) < 256
        assert all(result.ok and result.error is None for result in after), after
        assert all(result.ok for result in pool.run([ORDINARY] * 2))


HOLDER = ("import threading, time, sys\nthreading.stack_size(1 << 16)\n"
          "for _ in range(400): threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n"
          "print('held', flush=True); time.sleep(30)\n")


def _held_elsewhere(pool: PythonPool) -> list:
    """Ordinary samples run while another process of the workers' user holds 400 threads."""
    pool.run([ORDINARY, ORDINARY])  # both workers started (their budgets set)
    user = _sandbox_uid(pool)
    prefix = ["setpriv", f"--reuid={user[0]}", f"--regid={user[1]}", "--clear-groups"] if user else []
    holder = subprocess.Popen([*prefix, "/usr/bin/python3", "-I", "-c", HOLDER], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        return pool.run([ORDINARY] * 4)
    finally:
        holder.kill()
        holder.wait()


def _sandbox_uid(pool: PythonPool) -> tuple[int, int] | None:
    """The user root's workers drop to (None: they run as this process's user)."""
    if os.geteuid() != 0:
        return None
    for layer in pool.isolation().layers:
        if layer.name == "privilege drop" and layer.active and "uid " in layer.detail:
            import pwd

            uid = int(layer.detail.split("uid ")[1].split(")")[0])
            return uid, pwd.getpwuid(uid).pw_gid
    return None


def test_the_budget_counts_no_other_process_of_the_user(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WAPII_PIDS_CGROUP", "0")
    if userns.unavailable() is not None:
        pytest.skip(f"no user namespace here: {userns.unavailable()}")
    with PythonPool(preload=["urllib.request"], harness=HARNESS, workers=2, timeout=5.0) as pool:
        _skip_without_namespace(pool)
        assert all(result.ok for result in _held_elsewhere(pool))


def test_without_the_namespace_the_budget_is_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WAPII_PIDS_CGROUP", "0")
    monkeypatch.setenv("WAPII_USERNS", "0")
    with PythonPool(preload=["urllib.request"], harness=HARNESS, workers=2, timeout=5.0) as pool:
        if os.geteuid() == 0 and _sandbox_uid(pool) is None:
            pytest.skip("workers run as root: RLIMIT_NPROC does not apply")
        after = _held_elsewhere(pool)
        assert not any(result.ok for result in after), after
        assert all("could not start a process" in str(result.detail) for result in after), after
