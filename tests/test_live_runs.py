"""Runs still being written, or cut off: ``wapii report`` and ``wapii view`` read them without their
lock and mark them partial with their counts; ``wapii evaluate`` of a cut-off run counts the samples
never generated. A *writer* here is this test process holding the run directory's lock (as a
``wapii run`` does) while the directory holds a run's first lines, the last one cut off mid-write."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from support import run_cli

from wapii_core.store.lock import RunLock, writer_pid

pytestmark = pytest.mark.slow  # each test runs the CLI: seconds apiece


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("live") / "oracle"
    done = run_cli("run", "--limit", "8", "--out", str(out), "-q")
    assert done.returncode == 0, done.stderr
    return out


def cut_off(finished: Path, target: Path, generated: int, judged: int) -> Path:
    """A copy of ``finished`` as a run holds it mid-way: ``generated`` generation lines, ``judged``
    result lines and half of the next one (a line being written), no summary.json."""
    target.mkdir(parents=True)
    shutil.copy(finished / "run.json", target / "run.json")
    generations = (finished / "generations.jsonl").read_text().splitlines(True)
    results = (finished / "results.jsonl").read_text().splitlines(True)
    (target / "generations.jsonl").write_text("".join(generations[:generated]))
    (target / "results.jsonl").write_text("".join(results[:judged]) + results[judged][:40])
    return target


def test_a_lock_file_names_a_writer_only_while_it_is_held(tmp_path: Path) -> None:
    lock = RunLock(tmp_path / "run").acquire()
    try:
        assert writer_pid(tmp_path / "run") == os.getpid()
    finally:
        lock.release()
    assert writer_pid(tmp_path / "run") is None
    (tmp_path / "run").mkdir(exist_ok=True)
    (tmp_path / "run" / ".lock").write_text(f"{os.getpid()}\n")  # what a killed holder leaves: nobody holds it
    assert writer_pid(tmp_path / "run") is None


def test_report_of_a_run_being_written_is_partial_with_its_counts(finished: Path, tmp_path: Path) -> None:
    run = cut_off(finished, tmp_path / "running", generated=5, judged=3)
    with RunLock(run):  # the writer: readers must neither wait for it nor be refused
        done = run_cli("report", str(run), "--resamples", "0")
        assert done.returncode == 0, done.stderr
        text = " ".join(done.stdout.split())
        assert f"running (pid {os.getpid()}): 5 of 8 samples generated, 3 judged, 2 pending, 3 not generated yet" \
            in text, done.stdout
        assert "(partial)" in text and "Correct implementations (t)" in text
        assert (run / "results.jsonl").read_text().count("\n") == 3  # the line being written is left alone
    assert not (run / "summary.json").exists()


def test_report_of_an_interrupted_run_says_what_was_never_generated(finished: Path, tmp_path: Path) -> None:
    run = cut_off(finished, tmp_path / "cut", generated=4, judged=2)
    done = run_cli("report", str(run), "--resamples", "0")
    assert done.returncode == 0, done.stderr
    assert "interrupted: 4 of 8 samples generated, 2 judged, 2 pending, 4 not generated yet" in " ".join(
        done.stdout.split()), done.stdout


def test_evaluate_of_an_interrupted_run_counts_the_samples_never_generated(finished: Path, tmp_path: Path) -> None:
    run = cut_off(finished, tmp_path / "cut", generated=5, judged=2)
    done = run_cli("evaluate", str(run))
    assert done.returncode == 0, done.stderr
    text = " ".join((done.stdout + done.stderr).split())
    assert "5 of 8 samples judged (3 never generated, 0 generations failed)" in text, text


def test_view_bundle_of_a_run_being_written_holds_its_judged_and_pending_samples(finished: Path,
                                                                                 tmp_path: Path) -> None:
    run = cut_off(finished, tmp_path / "running", generated=5, judged=3)
    with RunLock(run):
        done = run_cli("view", str(run), "--bundle", str(tmp_path / "site"), "--no-open", "-q")
        assert done.returncode == 0, done.stderr
    meta = _put(tmp_path / "site" / "data" / "meta.js")
    assert meta["runs"][0]["state"] == "running"
    assert meta["runs"][0]["note"].endswith("5 of 8 samples generated, 3 judged, 2 pending, 3 not generated yet")
    index = _put(tmp_path / "site" / "data" / "r0" / "index.js")
    verdicts = [meta["vocab"]["verdict"][v] for v in index["v"]]
    assert verdicts == ["correct"] * 3 + ["pending"] * 2
    assert _put(tmp_path / "site" / "data" / "stamp.js") == meta["stamp"]


def _put(path: Path) -> object:
    """The value of a bundle data file (``wapii.put("KEY",VALUE);``, keys without commas)."""
    text = path.read_text(encoding="utf-8")
    return json.loads(text[text.index(",") + 1:-len(");\n")])


def test_report_of_a_run_before_its_first_judged_sample_still_shows_the_table(finished: Path, tmp_path: Path) -> None:
    run = cut_off(finished, tmp_path / "generating", generated=2, judged=0)
    with RunLock(run):
        done = run_cli("report", str(run), "--resamples", "0")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "Correct implementations (t) │ n/a" in text, done.stdout
    assert "2 of 8 samples generated, 0 judged, 2 pending, 6 not generated yet" in text


def test_show_of_a_run_being_written_reads_past_the_line_being_written(finished: Path, tmp_path: Path) -> None:
    run = cut_off(finished, tmp_path / "running", generated=5, judged=3)
    with RunLock(run):
        judged = run_cli("show", str(run), "larchwood/0")
        cut = run_cli("show", str(run), "larchwood/3")  # its result line is the one being written
    assert judged.returncode == 0 and "verdict: correct" in judged.stdout, judged.stderr
    assert cut.returncode == 0 and "not judged yet" in cut.stdout, cut.stderr
