"""Workers start under their rlimits through a command prefix, without ``preexec_fn``."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from wapii_core.sandbox import Plan, Supervisor
from wapii_core.sandbox.rlimit_exec import limits_prefix, prlimit_binary

LIMITS = {resource.RLIMIT_NOFILE: 77, resource.RLIMIT_FSIZE: 123456, resource.RLIMIT_CORE: 0}

REPORT = ("import json, resource; print(json.dumps({k: resource.getrlimit(k) for k in "
          f"{sorted(LIMITS)!r}}}))")


@pytest.mark.parametrize("use_prlimit", [True, False], ids=["prlimit", "python"])
def test_the_prefix_sets_each_limit_soft_and_hard_before_the_command_runs(use_prlimit: bool) -> None:
    if use_prlimit and prlimit_binary() is None:
        pytest.skip("util-linux prlimit is not installed")
    prefix = limits_prefix(LIMITS, use_prlimit=use_prlimit)
    assert (Path(prefix[0]).name == "prlimit") is use_prlimit
    done = subprocess.run([*prefix, sys.executable, "-c", REPORT], capture_output=True, text=True, check=True)
    seen = {int(k): tuple(v) for k, v in json.loads(done.stdout).items()}
    assert seen == {kind: (value, value) for kind, value in LIMITS.items()}


def test_no_limits_no_prefix() -> None:
    assert limits_prefix({}) == []


WORKER = r'''
import json, os, sys
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    job = json.loads(line)
    print(json.dumps({"id": job["id"], "pid": os.getpid()}), flush=True)
'''


def test_supervised_workers_run_under_the_plans_limits_and_start_without_preexec_fn(tmp_path: Path,
                                                                                  monkeypatch) -> None:
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    started: list[dict] = []
    real_popen = subprocess.Popen

    def recording_popen(*args, **kwargs):
        started.append(kwargs)
        return real_popen(*args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", recording_popen)
    plan = Plan(argv=[sys.executable, str(script)], env=dict(os.environ), limits=dict(LIMITS), layers=[])
    supervisor = Supervisor("limited", lambda: plan, size=1, timeout=5, grace=1, ready_timeout=20)
    try:
        pid = supervisor.run([{"action": "pid"}])[0]["pid"]
        limits = Path(f"/proc/{pid}/limits").read_text()
    finally:
        supervisor.close()
    assert started and all(kwargs.get("preexec_fn") is None for kwargs in started)
    rows = {line[:26].strip(): line[26:].split()[:2] for line in limits.splitlines()[1:]}
    assert rows["Max open files"] == ["77", "77"]
    assert rows["Max file size"] == ["123456", "123456"]
    assert rows["Max core file size"] == ["0", "0"]
