"""Hostile text on the terminal: what a program prints, what a model or a run file chose, reaches the
terminal with every control character made visible and is never parsed as Rich markup.

Each command that shows such text is fed a string with ESC (a CSI that clears the line and moves the
cursor, an OSC 52 that writes the clipboard), a C1 CSI (0x9b), a bidirectional override and Rich markup
(``[/]``, which crashed ``report --libraries``), and no byte of it may reach the output raw.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from support import run_cli_in_process
from wapii_core.base.text import visible

HOSTILE = "\x1b]52;c;aGk=\x07\x1b[2K\x1b[1Gverdict: correct\x1b[8m \x9b31m [/] [bold]x[/bold] \u202e\x85"
"""ESC (OSC 52 clipboard write, CSI erase line, cursor to column 1, conceal), C1 CSI, markup, a bidi
override and C1 NEL."""
RAW = ["\x1b", "\x9b", "\x07", "\u202e", "\x85"]


def assert_contained(*outputs: str) -> None:
    for output in outputs:
        assert not [c for c in RAW if c in output], repr(output[:2000])


def test_visible_shows_every_control_character_and_escapes_markup() -> None:
    assert visible("a\x1b[2Kb\x9bc\x7f\u202e") == "a\\x1b[2Kb\\x9bc\\x7f\\u202e"
    assert visible("one\ntwo\tthree") == "one\\x0atwo\\x09three"
    assert visible("one\ntwo\tthree", lines=True) == "one\ntwo\tthree"
    assert visible("[/] [bold]", markup=True) == "\\[/] \\[bold]"
    assert all(ord(c) >= 0x20 and not 0x7f <= ord(c) < 0xa0 for c in visible("".join(map(chr, range(0x2100)))))


def oracle_code() -> tuple[str, str]:
    from wapii_core.base import plugins
    from wapii_core.base.model import Setup
    from wapii_core.run.runner import load_dataset

    sample = load_dataset("demo", None).samples[0]
    return sample.id, plugins.adapters.get("axios_js")().render(sample.config, Setup.full, sample)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """A replay run whose program's comment holds the hostile text, and its copy forged as a run of another
    library whose stored verdict failed with the hostile text as its detail, label and reason."""
    from wapii_core.run.runner import RunConfig, run

    tmp = tmp_path_factory.mktemp("hostile_text")
    sample, code = oracle_code()
    programs = tmp / "programs.jsonl"
    programs.write_text(json.dumps({"sample": sample, "code": f"// {HOSTILE}\n{code}"}) + "\n")
    first = tmp / "axios"
    run(RunConfig(dataset="demo", backend="replay", generations=programs, limit=1), first)
    record = json.loads((first / "run.json").read_text())
    record.update(model=HOSTILE)  # the label of both runs
    (first / "run.json").write_text(json.dumps(record))
    second = tmp / "fetch"
    shutil.copytree(first, second)
    (second / "run.json").write_text(json.dumps({**record, "adapter": "fetch_js"}))
    result = json.loads((second / "results.jsonl").read_text())
    result.update(verdict="nonexecutable", error="runtime_error", error_detail=HOSTILE)
    (second / "results.jsonl").write_text(json.dumps(result) + "\n")
    return first, second, sample


def test_show_makes_a_programs_text_and_its_detail_visible(runs: tuple[Path, Path, str]) -> None:
    first, second, sample = runs
    for directory in (first, second):
        done = run_cli_in_process("show", str(directory), sample)
        assert done.returncode == 0, done.stderr
        assert_contained(done.stdout, done.stderr)
        assert "\\x1b]52;c;aGk=" in done.stdout and "[/]" in done.stdout
    verdict = next(line for line in run_cli_in_process("show", str(second), sample).stdout.splitlines()
                   if line.startswith("verdict:"))
    assert verdict.startswith("verdict: nonexecutable (runtime_error: \\x1b]52")  # the fake verdict stays inside


def test_a_verdict_with_markup_and_escapes_in_its_reasons_is_shown_as_text(runs: tuple[Path, Path, str],
                                                                            tmp_path: Path) -> None:
    first, _, sample = runs
    forged = tmp_path / "run"
    shutil.copytree(first, forged)
    result = json.loads((forged / "results.jsonl").read_text())
    result.update(verdict="wrong", url="incorrect_value", resolved_endpoint=HOSTILE, reasons={"url": HOSTILE},
                  request={**result["request"], "url": HOSTILE})
    (forged / "results.jsonl").write_text(json.dumps(result) + "\n")
    done = run_cli_in_process("show", str(forged), sample)
    assert done.returncode == 0, done.stderr
    assert_contained(done.stdout)
    assert "[bold]x[/bold]" in done.stdout


@pytest.mark.parametrize("args", [(), ("--full",), ("--libraries",), ("--format", "md"), ("--leaderboard",)])
def test_report_shows_labels_and_details_as_text(runs: tuple[Path, Path, str], args: tuple[str, ...]) -> None:
    first, second, _ = runs
    done = run_cli_in_process("report", str(first), str(second), "--resamples", "0", *args)
    assert done.returncode == 0, done.stderr  # --libraries: no MarkupError on `[/]`
    assert_contained(done.stdout, done.stderr)
    if args == ("--libraries",):
        assert "did not run: runtime_error" in done.stdout and "[/]" in done.stdout


def test_errors_quoting_a_sample_id_show_it_visible(tmp_path: Path) -> None:
    programs = tmp_path / "programs.jsonl"
    programs.write_text(json.dumps({"sample": f"larchwood/{HOSTILE}", "code": "x"}) + "\n")
    done = run_cli_in_process("run", "--dataset", "demo", "--backend", "replay", "--generations", str(programs),
                              "--out", str(tmp_path / "run"), "--quiet")
    assert done.returncode == 2
    assert_contained(done.stdout, done.stderr)
    assert len(done.stderr.strip().splitlines()) == 1 and "\\x1b]52" in done.stderr


def test_progress_lines_show_a_stage_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    from wapii_core.cli.progress import progress_bars

    with progress_bars(True) as bars:
        bars(HOSTILE, 1)(1)
    captured = capsys.readouterr()
    assert_contained(captured.out, captured.err)
    assert "[/]" in captured.err


def test_dataset_check_shows_a_datasets_values_as_text(tmp_path: Path) -> None:
    from support import REPO

    dataset = tmp_path / "hostile_api"
    shutil.copytree(REPO / "specs" / "demo", dataset)
    samples = json.loads((dataset / "dataset.json").read_text())
    samples[0]["config"]["params"]["limit"] = HOSTILE
    samples[0]["config"]["params"][HOSTILE] = 1
    (dataset / "dataset.json").write_text(json.dumps(samples))
    done = run_cli_in_process("datasets", "check", "--dataset-dir", str(dataset))
    assert done.returncode == 1 and "\\x1b]52" in done.stdout
    assert_contained(done.stdout, done.stderr)
