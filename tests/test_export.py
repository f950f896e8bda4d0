"""``wapii export RUN --format jsonl``: one joined line per sample and draw (task, prompt, program,
expected and captured request, exchanges, verdicts, timings), of a finished run and of one cut off."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from support import run_cli

pytestmark = pytest.mark.slow  # a run and the CLI: seconds

KEYS = {"run", "sample", "draw", "api", "task", "state", "prompt", "program", "raw_output", "finish_reason",
        "generation_error", "expected", "expected_from", "captured", "call", "exchanges", "verdict", "error",
        "error_detail", "mode", "url", "method", "endpoint", "resolved_endpoint", "arguments", "reasons", "timings"}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("export") / "oracle"
    done = run_cli("run", "--limit", "6", "--out", str(out), "-q")
    assert done.returncode == 0, done.stderr
    return out


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_export_writes_one_joined_line_per_sample(run_dir: Path, tmp_path: Path) -> None:
    done = run_cli("export", str(run_dir), "--format", "jsonl", "--out", str(tmp_path / "samples.jsonl"))
    assert done.returncode == 0, done.stderr
    records = _lines(tmp_path / "samples.jsonl")
    generations, results = _lines(run_dir / "generations.jsonl"), _lines(run_dir / "results.jsonl")
    assert len(records) == len(results) == 6
    dataset = {f"{s['api']}/{s['index']}": s for s in
               json.loads((Path(json.loads((run_dir / "run.json").read_text())["dataset_source"])).read_text())}
    for record, generation, result in zip(records, generations, results):
        assert set(record) == KEYS
        assert record["sample"] == generation["sample"] == result["sample"] and record["state"] == "judged"
        assert record["task"] == dataset[record["sample"]]["task"] and record["api"] == "larchwood"
        assert record["prompt"] == generation["prompt"] and record["program"] == generation["code"]
        assert record["expected"] == result["expected_request"] and record["expected_from"] == "run"
        assert record["captured"] == result["request"] and record["exchanges"] == [{"request": result["request"]}]
        assert record["verdict"] == result["verdict"] == "correct" and record["arguments"] == result["arguments"]
        assert record["call"] == result["call"] and record["reasons"] == {}
        assert set(record["timings"]) == {"latency_s", "tokens_in", "tokens_out", "execution_s"}
        assert record["timings"]["execution_s"] == result["timings"]["execution_s"]
    assert run_cli("export", str(run_dir)).stdout == (tmp_path / "samples.jsonl").read_text()  # to the terminal


def test_export_of_a_cut_off_run_marks_the_samples_not_judged(run_dir: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut"
    cut.mkdir()
    shutil.copy(run_dir / "run.json", cut / "run.json")
    (cut / "generations.jsonl").write_text("".join((run_dir / "generations.jsonl").read_text().splitlines(True)[:4]))
    results = (run_dir / "results.jsonl").read_text().splitlines(True)
    (cut / "results.jsonl").write_text("".join(results[:2]) + results[2][:25])
    done = run_cli("export", str(cut))
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["state"] for r in records] == ["judged", "judged", "pending", "pending"]
    assert records[2]["verdict"] is None and records[2]["program"] and records[2]["expected_from"] == "dataset"
    assert records[2]["expected"]["url"].startswith("https://") and records[2]["exchanges"] == []


def test_export_refuses_bad_input_in_one_line(run_dir: Path, tmp_path: Path) -> None:
    for args, message in [((str(run_dir), "--format", "csv"), "unknown export format 'csv' (known: jsonl)"),
                          ((str(tmp_path / "nowhere"),), "no such run directory"),
                          ((str(run_dir), "--out", str(run_dir / "results.jsonl")), "is the run's own results.jsonl"),
                          ((str(run_dir), "--out", str(tmp_path)), "is a directory")]:
        done = run_cli("export", *args)
        assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
