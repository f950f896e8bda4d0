"""The example third-party plugin (``tests/example_plugin``, written from ``docs/plugins.md``),
installed into a target directory as a user would install it: its adapter, backend and metric
provider in one ``wapii run``, its adapter's oracle self-test, and the hostile Python corpus run
through its adapter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hostile.canaries import FORGE_DEFAULT, Canaries, corpus
from hostile.fixtures import canaries, sandbox_user  # noqa: F401 - fixtures
from hostile.run_corpus import benign_py, same_request
from support import REPO, run_cli


@pytest.fixture(scope="module")
def example_plugin_path(tmp_path_factory) -> Path:
    """The example plugin, installed (not just put on a path) into a target directory that the
    sandbox's user may read (its workers import the adapter's harness from there)."""
    target = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--disable-pip-version-check", "--target", str(target), str(REPO / "tests" / "example_plugin")],
                   check=True, capture_output=True)
    for path in [target, *target.rglob("*")]:
        path.chmod(path.stat().st_mode | (0o055 if path.is_dir() else 0o044))
    return target


@pytest.fixture(scope="module")
def example_env(example_plugin_path) -> dict[str, str]:
    return {"PYTHONPATH": os.pathsep.join([str(example_plugin_path), os.environ.get("PYTHONPATH", "")])}


@pytest.mark.slow
def test_a_run_uses_the_example_adapter_backend_and_metric_together(example_env, tmp_path):
    listed = {p["name"]: p for p in json.loads(run_cli("plugins", "--json", env=example_env).stdout)}
    assert listed["example"]["distribution"] == "wapii-example-plugin"
    assert (listed["example"]["adapters"], listed["example"]["backends"], listed["example"]["metrics"]) == (
        ["urllib_py"], ["fixed"], ["verdict_histogram"])

    out = tmp_path / "run"
    # the starter of the full setup opens urllib.request.urlopen(urllib.request.Request(
    done = run_cli("run", "--adapter", "urllib_py", "--backend", "fixed", "-O", "completion='{url}', method='{METHOD}'))\n",
                   "--out", str(out), "--quiet", env=example_env)
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["mode"] == "wire"  # the adapter's default_mode
    # the completion hits the right endpoint every time, executed in the sandbox, but sends no arguments
    assert summary["overall"]["Correct URLs (t)"] == 1.0 and summary["overall"]["Correct methods (t)"] == 1.0
    assert summary["overall"]["Correct implementations (t)"] < 1.0
    histogram = summary["metrics"]["verdict_histogram"]
    assert sum(histogram["verdicts"].values()) == summary["samples"] > 0
    assert histogram["share_correct"] == summary["overall"]["Correct implementations (t)"]
    report = (out / "report.md").read_text()
    assert f"| share_correct | {100 * histogram['share_correct']:.1f} % |" in report
    assert "- verdicts.wrong (count): number of samples with that verdict" in report


@pytest.mark.slow
def test_the_example_adapter_passes_the_oracle_self_test(example_env, tmp_path):
    done = run_cli("run", "--adapter", "urllib_py", "--backend", "oracle", "--setup", "full", "--setup", "argument",
                   "--setup", "import", "--out", str(tmp_path / "oracle"), "--quiet", env=example_env)
    assert done.returncode == 0, done.stderr
    for setup in ("full", "argument", "import"):
        summary = json.loads((tmp_path / "oracle" / setup / "summary.json").read_text())
        assert summary["overall"]["Correct implementations (t)"] == 1.0, setup
        assert summary["metrics"]["verdict_histogram"]["verdicts"] == {"correct": summary["samples"]}


@pytest.mark.slow
def test_hostile_python_programs_through_the_example_adapter_are_contained(example_plugin_path, canaries: Canaries,
                                                                           monkeypatch):
    """Each hostile program, then a benign one, on one worker: no canary trips, no hostile program is
    captured as the request it forges, and every benign program is captured as it sent its request."""
    monkeypatch.syspath_prepend(str(example_plugin_path))
    from wapii_example.adapter import UrllibAdapter

    imports = "from urllib.request import Request, urlopen\n"
    programs = corpus("py", canaries.directory, canaries.port, canaries.marker)
    calls = [imports + code for n, p in enumerate(programs) for code in (p.aimed_at(), benign_py(n)[0])]
    adapter = UrllibAdapter(workers=1, timeout_s=1.0)
    try:
        captures = adapter.execute(calls)
        requests = [adapter.normalise(c.request) if c.request is not None else None for c in captures]
    finally:
        adapter.close()
    problems = []
    for n, program in enumerate(programs):
        hostile, benign = requests[2 * n], requests[2 * n + 1]
        if hostile is not None and same_request(hostile, FORGE_DEFAULT):
            problems.append(f"{program.name}: captured as the request it forges")
        url = f"https://api.example.com/items/{n}"
        expected = {"url": url, "sent_url": url, "method": "get", "headers": {"X-n": str(n)},
                    "params": {"q": str(n)}, "sent_params": {"q": str(n)}}
        if benign != expected:
            problems.append(f"{program.name}: the benign program after it got {captures[2 * n + 1]}")
    assert problems == []
    assert canaries.violations([json.dumps([c.model_dump() for c in captures])]) == []


@pytest.mark.slow
def test_a_constrained_run_with_an_adapter_that_cannot_constrain_is_refused_in_one_line(example_env, tmp_path):
    """The example adapter declares no capabilities and has no ``constraint``: the default says it
    cannot constrain, and the run says so before any backend or worker starts."""
    out = tmp_path / "run"
    done = run_cli("run", "--adapter", "urllib_py", "--backend", "fixed", "--setting", "constrained",
                   "-O", "completion=''", "--out", str(out), "--quiet", env=example_env)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "adapter 'urllib_py' cannot constrain generation (setting 'constrained')" in lines[0]
    assert not out.exists()
