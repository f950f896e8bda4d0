"""`wapii run`, `evaluate` and `report` end to end, through the real CLI (its entry point, in this process:
`support.run_cli_in_process`), on real Node and axios."""

from __future__ import annotations

import json
import shutil

import pytest

from support import CONFORMANCE, WAPIIBENCH, run_cli_in_process

SETUPS = ["full", "argument", "import"]


def summary_of(run_dir):
    return json.loads((run_dir / "summary.json").read_text())


@pytest.mark.slow
@pytest.mark.parametrize("setup", SETUPS)
def test_oracle_scores_everything_correct_on_the_demo(tmp_path, setup):
    out = tmp_path / setup
    done = run_cli_in_process("run", "--setup", setup, "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    summary = summary_of(out)
    assert summary["complete"] and summary["samples"] >= 20
    assert summary["overall"]["Correct implementations (t)"] == 1.0
    assert summary["overall"]["Total errors"] == 0
    lines = [json.loads(l) for l in (out / "results.jsonl").read_text().splitlines()]
    assert len(lines) == summary["samples"] and {l["verdict"] for l in lines} == {"correct"}
    assert "| Correct implementations (t) | 100.0 |" in (out / "report.md").read_text()


@pytest.mark.slow
def test_an_interrupted_run_resumes_to_the_same_summary(tmp_path):
    args = ["run", "--dataset", "wapiibench", "--data-dir", str(WAPIIBENCH), "--backend", "replay",
            "--generations", str(CONFORMANCE / "corpus_a"), "--api", "google_sheet_v4", "--api", "google_calendar_v3",
            "--quiet", "--out"]
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    assert run_cli_in_process(*args, str(whole)).returncode == 0
    shutil.copytree(whole, cut)
    # What a kill -9 in the middle leaves: some generations, fewer results, a half-written line, no summary.
    gens = (cut / "generations.jsonl").read_text().splitlines(keepends=True)
    (cut / "generations.jsonl").write_text("".join(gens[:30]) + gens[30][:25])
    res = (cut / "results.jsonl").read_text().splitlines(keepends=True)
    (cut / "results.jsonl").write_text("".join(res[:12]))
    (cut / "summary.json").unlink()
    done = run_cli_in_process(*args, str(cut))
    assert done.returncode == 0, done.stderr
    assert summary_of(cut) == summary_of(whole)
    assert len((cut / "generations.jsonl").read_text().splitlines()) == len(gens)


@pytest.mark.slow
def test_evaluate_rescores_stored_generations_identically(tmp_path):
    out = tmp_path / "run"
    assert run_cli_in_process("run", "--setup", "argument", "--out", str(out), "--quiet").returncode == 0
    before = summary_of(out)
    (out / "summary.json").unlink()
    done = run_cli_in_process("evaluate", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    assert summary_of(out) == before


@pytest.mark.slow
def test_report_puts_runs_side_by_side(tmp_path):
    for setup in ("full", "argument"):
        assert run_cli_in_process("run", "--setup", setup, "--out", str(tmp_path / setup), "--quiet").returncode == 0
    full, argument = str(tmp_path / "full"), str(tmp_path / "argument")
    done = run_cli_in_process("report", full, argument, "--format", "md", "--resamples", "0")
    assert done.returncode == 0, done.stderr
    assert "## Full completion" in done.stdout and "## Argument completion" in done.stdout
    assert "| Correct implementations (t) | 100.0 |" in done.stdout
    by_api = run_cli_in_process("report", full, "--by-api", "--format", "md", "--resamples", "0")
    assert "| Correct implementations (t) | 100.0 | 100.0 |" in by_api.stdout


def one_line_error(done, *needles):
    assert done.returncode == 2, (done.returncode, done.stderr)
    err = done.stderr.strip()
    assert err.startswith("error: ") and "\n" not in err and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, err


def test_malformed_generations_file_is_a_one_line_error_and_writes_nothing(tmp_path):
    bad = tmp_path / "gens.jsonl"
    bad.write_text('{"sample": "larchwood/0", "code": "axios.get(1);"}\n{"sample": oops}\n')
    out = tmp_path / "run"
    one_line_error(run_cli_in_process("run", "--backend", "replay", "--generations", str(bad), "--out", str(out)),
                   str(bad), "line 2")
    assert not out.exists()


def test_generations_for_samples_the_dataset_lacks_are_refused(tmp_path):
    bad = tmp_path / "gens.jsonl"
    bad.write_text('{"sample": "nosuchapi/3", "code": "axios.get(1);"}\n')
    one_line_error(run_cli_in_process("run", "--backend", "replay", "--generations", str(bad),
                                      "--out", str(tmp_path / "r")), str(bad), "nosuchapi/3")


def test_bad_run_inputs_are_refused_before_any_sandbox_worker_starts(tmp_path):
    """With bubblewrap absent (``WAPII_BWRAP=`` pretends so) a worker that starts prints its sandbox
    warning: a bad generations file or out dir must end the run in its one line before that."""
    absent = {"WAPII_BWRAP": ""}
    bad = tmp_path / "gens.jsonl"
    bad.write_text('{"sample": "nosuchapi/3", "code": "axios.get(1);"}\n')
    one_line_error(run_cli_in_process("run", "--backend", "replay", "--generations", str(bad),
                                      "--out", str(tmp_path / "r"), env=absent), str(bad), "nosuchapi/3")
    other = tmp_path / "other"
    other.mkdir()
    (other / "run.json").write_text(json.dumps({"dataset": "demo", "adapter": "axios_js", "backend": "replay",
                                                "setup": "import"}))
    one_line_error(run_cli_in_process("run", "--out", str(other), env=absent), str(other))


def test_a_malformed_dataset_is_a_one_line_error_and_writes_nothing(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(WAPIIBENCH, data, copy_function=shutil.copyfile)
    (data / "dataset.json").write_text('[{"api": "slack", "index": 0, "task": "x"')
    out = tmp_path / "run"
    one_line_error(run_cli_in_process("run", "--dataset", "wapiibench", "--data-dir", str(data), "--out", str(out)),
                   "dataset.json", "malformed JSON")
    assert not out.exists()


def test_a_spec_that_does_not_parse_is_a_one_line_error(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(WAPIIBENCH, data, copy_function=shutil.copyfile)
    spec = data / "specs" / "slack.yaml"
    spec.write_text("openapi: 3.0.0\npaths: {\n  bad: [\n")
    one_line_error(run_cli_in_process("run", "--dataset", "wapiibench", "--data-dir", str(data),
                                      "--out", str(tmp_path / "r")), "slack.yaml")


@pytest.mark.slow
def test_a_run_directory_of_another_run_is_refused_and_kept(tmp_path):
    out = tmp_path / "run"
    assert run_cli_in_process("run", "--setup", "full", "--out", str(out), "--quiet").returncode == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    one_line_error(run_cli_in_process("run", "--setup", "argument", "--out", str(out)),
                   f"{out}: holds a run with setup 'full', not 'argument' (use another --out, or --force to replace it)")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


@pytest.mark.slow
def test_a_corrupt_run_directory_is_a_one_line_error(tmp_path):
    out = tmp_path / "run"
    assert run_cli_in_process("run", "--out", str(out), "--quiet").returncode == 0
    (out / "results.jsonl").write_text('{"sample": "x"}\n')
    one_line_error(run_cli_in_process("run", "--out", str(out)), "results.jsonl", "line 1")


@pytest.mark.slow
@pytest.mark.parametrize("setup", SETUPS)
def test_oracle_scores_all_395_wapiibench_samples_correct(tmp_path, setup):
    out = tmp_path / setup
    done = run_cli_in_process("run", "--dataset", "wapiibench", "--data-dir", str(WAPIIBENCH), "--setup", setup,
                   "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    overall = summary_of(out)["overall"]
    assert summary_of(out)["samples"] == 395
    assert overall["Correct implementations (t)"] == 1.0 and overall["Total errors"] == 0
