"""A replay file for some samples of a dataset judges exactly those: they are the run's task set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import run_cli
from wapii_core.run.runner import load_dataset

REPO = Path(__file__).resolve().parents[1]
CALL = "const axios = require('axios');\naxios.get('https://api.larchwood-library.example/v2/books/bk_20931');\n"


def _replay_file(path: Path, ids: list[str]) -> Path:
    path.write_text("".join(json.dumps({"sample": i, "code": CALL}) + "\n" for i in ids))
    return path


@pytest.mark.slow
def test_a_file_for_3_of_the_demos_26_samples_judges_those_3_and_says_so(tmp_path: Path) -> None:
    samples = load_dataset("demo", None).samples
    chosen = [samples[i].id for i in (3, 11, 19)]
    out = tmp_path / "three"
    done = run_cli("run", "--backend", "replay", "-g", str(_replay_file(tmp_path / "three.jsonl", chosen)),
                   "--out", str(out), "--quiet", cwd=REPO)
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [r["sample"] for r in results] == chosen
    assert results[0]["url"] == "correct" and results[1]["url"] == "wrong"
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["complete"], summary["judged"], summary["tasks"], summary["tasks_of"]) == (True, 3, 3, len(samples))
    assert summary["failed_generations"] == []
    assert json.loads((out / "run.json").read_text())["task_set"] == {"by": "backend", "samples": chosen}
    report = (out / "report.md").read_text()
    assert f"3 of {len(samples)} tasks (the samples the replayed generations hold), 3 of 3 samples judged" in report
    # none of the marks of an incomplete run (the legend's "Incomplete implementations" row is no such mark)
    assert not any(mark in report for mark in ("(**incomplete**)", "(incomplete)", "is incomplete"))

    again = run_cli("evaluate", str(out), "--quiet", cwd=REPO)  # the recorded task set, not the whole dataset
    assert again.returncode == 0, again.stderr
    assert [json.loads(line)["sample"] for line in (out / "results.jsonl").read_text().splitlines()] == chosen


@pytest.mark.slow
def test_a_file_with_nothing_for_the_selected_samples_is_refused(tmp_path: Path) -> None:
    samples = load_dataset("demo", None).samples
    generations = _replay_file(tmp_path / "late.jsonl", [samples[-1].id])
    done = run_cli("run", "--backend", "replay", "-g", str(generations), "--limit", "2", "--out",
                   str(tmp_path / "none"), "--quiet", cwd=REPO)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == (f"error: {generations}: holds no program for any of the 2 selected "
                                                    "samples (its 1 are for others: check --api and --limit)")
    assert not (tmp_path / "none" / "run.json").exists()
