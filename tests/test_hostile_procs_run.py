"""Programs that try to spend a budget every sample shares (``tests/hostile/procs``), in a real
``wapii run``: thread and fork bombs with the audit hook switched off (``requests_py``), worker
threads and child processes (``axios_js``). Two workers: while a hostile program holds what it could
start on one, the ordinary programs after it run on the other. Each ordinary program must be judged
exactly as in a run without the hostile ones, no result may be provisional (a worker that could not
start), no hostile program may be judged correct, and the run ends with summary.json and report.md.

Run with and without bubblewrap; as root each worker has a pids cgroup, and with
``WAPII_PIDS_CGROUP=0`` (or as an ordinary user) a user namespace of its own (``--budget userns``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hostile.fixtures import sandbox_user  # noqa: F401 - fixture
from support import WAPIIBENCH
from test_first_hour import wapii
from wapii_core.sandbox import bwrap

FAMILY = Path(__file__).resolve().parent / "hostile" / "procs"
ORDINARY_PER_HOSTILE = 4
ADAPTERS = {"requests_py": ("py", "WAPII_PYTHON"), "axios_js": ("js", "WAPII_AXIOS_JS")}

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not (WAPIIBENCH / "dataset.json").exists(), reason="needs ../shared/wapiibench")]


def _run(tmp_path: Path, name: str, adapter: str, lines: list[dict[str, str]], limit: int) -> dict[str, dict]:
    generations = tmp_path / f"{name}.jsonl"
    generations.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / name
    done = wapii("run", "--dataset", "wapiibench", "--data-dir", WAPIIBENCH, "-a", adapter, "--backend", "replay",
                 "--generations", generations, "--limit", limit, "--out", out, "--quiet")
    assert done.code == 0, done.stderr
    assert (out / "summary.json").is_file() and (out / "report.md").is_file()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] is True and summary["not_executed"] == 0 and summary["judged"] == len(lines)
    return {r["sample"]: r for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())}


@pytest.mark.parametrize("adapter", sorted(ADAPTERS))
@pytest.mark.parametrize("budget", ["default", "userns"])
@pytest.mark.parametrize("layers", ["bubblewrap", "no-bubblewrap"])
def test_one_sample_cannot_spend_what_another_worker_needs(adapter: str, budget: str, layers: str,
                                                           tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from wapii_core.base import plugins
    from wapii_core.base.model import Setup
    from wapii_core.run.runner import load_dataset

    if adapter not in plugins.adapters.names():
        pytest.skip(f"adapter {adapter} is not installed")
    if budget == "userns":
        if os.geteuid() != 0:
            pytest.skip("an ordinary user's run is the default case")
        monkeypatch.setenv("WAPII_PIDS_CGROUP", "0")
        if layers == "no-bubblewrap":
            pytest.skip("as root without bubblewrap the user namespace budget is off by design")
    if layers == "no-bubblewrap":
        monkeypatch.setenv(bwrap.BWRAP_ENV, "")
    suffix, env = ADAPTERS[adapter]
    monkeypatch.setenv(f"{env}_WORKERS", "2")
    monkeypatch.setenv(f"{env}_TIMEOUT", "4")
    programs = sorted(FAMILY.glob(f"{suffix}/*.{suffix}"))
    dataset = load_dataset("wapiibench", WAPIIBENCH)
    samples = dataset.samples[: (ORDINARY_PER_HOSTILE + 1) * len(programs)]
    hostile, ordinary = samples[:len(programs)], samples[len(programs):]
    renderer = plugins.adapters.get(adapter)()
    try:
        benign = {s.id: renderer.render(s.config, Setup.full, s, "reference") for s in ordinary}
    finally:
        renderer.close()

    alone = _run(tmp_path, "alone", adapter, [{"sample": sid, "code": code} for sid, code in benign.items()],
                 len(samples))
    lines: list[dict[str, str]] = []
    for n, (path, sample) in enumerate(zip(programs, hostile)):
        lines.append({"sample": sample.id, "code": path.read_text()})
        lines += [{"sample": s.id, "code": benign[s.id]}
                  for s in ordinary[n * ORDINARY_PER_HOSTILE:(n + 1) * ORDINARY_PER_HOSTILE]]
    mixed = _run(tmp_path, "mixed", adapter, lines, len(samples))

    assert {alone[sid]["verdict"] for sid in benign} == {"correct"}, "the ordinary programs ran alone"
    problems = [f"{sid} beside a hostile program: {mixed[sid]['verdict']} {mixed[sid]['error_detail']}"
                for sid in benign if (mixed[sid]["verdict"], mixed[sid]["error"], mixed[sid]["request"])
                != (alone[sid]["verdict"], alone[sid]["error"], alone[sid]["request"])]
    problems += [f"{path.name}: judged correct" for path, sample in zip(programs, hostile)
                 if mixed[sample.id]["verdict"] == "correct"]
    problems += [f"{sid}: provisional" for sid, result in mixed.items() if result.get("provisional")]
    assert problems == [], "\n".join(problems)
