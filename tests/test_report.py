"""`wapii report`: values of a hand-computed run, bootstrap intervals, the paired test, every format."""

from __future__ import annotations

import csv
import io
import json
import math
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from wapii_core.cli.report import report_command
from wapii_core.judge.metrics import ROW_NAMES, PaperMetrics
from wapii_core.base.model import SampleResult
from wapii_core.report.tables import build_report, describe_paired, load_runs, markdown_report
from wapii_core.store.record import load_run, load_summary
from wapii_core.report.rate_terms import RATE_ROWS, point_values, task_terms
from wapii_core.report.stats import bootstrap_intervals, mcnemar_exact, paired_test

# Four samples judged by hand (metrics.md §6): one correct, one wrong, one illegal, one that did not run.
HAND = [
    SampleResult(sample="a/0", api="a", verdict="correct", url="correct", method="correct", endpoint="correct",
                 arguments={"headers": {"Accept": "correct", "Authorization": "correct"}, "params": {"limit": "correct"}},
                 expected_arguments={"headers": 1, "params": 1}),
    SampleResult(sample="a/1", api="a", verdict="wrong", url="correct", method="correct", endpoint="correct",
                 arguments={"headers": {"Authorization": "correct"},
                            "params": {"limit": "incorrect_value", "q": "missing", "extra": "unnecessary"}},
                 expected_arguments={"headers": 1, "params": 2}),
    SampleResult(sample="a/2", api="a", verdict="illegal", url="illegal", method="correct", endpoint="illegal",
                 arguments={"headers": {"Content-Type": "illegal"}, "data": {"name": "correct", "bogus": "illegal"}},
                 expected_arguments={"headers": 0, "data": 1}),
    SampleResult(sample="b/0", api="b", verdict="nonexecutable", error="runtime_error",
                 expected_arguments={"headers": 1, "params": 2}),
]

# expected 2+3+1+3 = 9 (6 executable); all 2+4+2+3 = 11 (8 executable)
HAND_ROWS = {
    "Executable implementations (t)": 3 / 4,
    "Correct implementations (t)": 1 / 4, "Correct implementations (e)": 1 / 3,
    "Illegal implementations (t)": 1 / 4, "Illegal implementations (e)": 1 / 3,
    "Correct URLs (t)": 2 / 4, "Correct URLs (e)": 2 / 3,
    "Illegal URLs (t)": 1 / 4, "Illegal URLs (e)": 1 / 3,
    "Correct methods (t)": 3 / 4, "Correct methods (e)": 1.0,
    "Illegal methods (t)": 0.0, "Illegal methods (e)": 0.0,
    "Correct argument names (t)": 5 / 9, "Correct argument names (e)": 5 / 6,
    "Correct argument values (t)": 4 / 9, "Correct argument values (e)": 4 / 6,
    "Missing arguments (t)": 4 / 9, "Missing arguments (e)": 1 / 6,
    "Unexpected arguments (t)": 2 / 11, "Unexpected arguments (e)": 2 / 8,
    "Unnecessary arguments (t)": 1 / 11, "Unnecessary arguments (e)": 1 / 8,
    "Illegal arguments (t)": 1 / 11, "Illegal arguments (e)": 1 / 8,
    "Mean argument precision (t)": (1 + 2 / 3 + 1 / 2) / 3, "Mean argument precision (e)": (1 + 2 / 3 + 1 / 2) / 3,
    "Mean argument recall (t)": (1 + 2 / 3 + 1 + 0) / 4, "Mean argument recall (e)": (1 + 2 / 3 + 1) / 3,
    "Mean argument Jaccard index (t)": (1 + 1 / 2 + 1 / 2 + 0) / 4,
    "Mean argument Jaccard index (e)": (1 + 1 / 2 + 1 / 2) / 3,
    "Mean argument value conditional accuracy (t)": (1 + 1 / 2 + 1) / 3,
    "Mean argument value conditional accuracy (e)": (1 + 1 / 2 + 1) / 3,
    "Total errors": 1, "Incomplete implementations": 0, "Runtime errors": 1,
}


def write_run(directory: Path, results: list[SampleResult], **run: object) -> Path:
    """A run directory as `wapii run` leaves it (summary by the `wapii` metric provider)."""
    directory.mkdir(parents=True)
    info = {"dataset": "hand", "adapter": "axios_js", "backend": "replay", "model": "m", "setup": "full",
            "setting": "unconstrained", "mode": "reference", **run}
    (directory / "run.json").write_text(json.dumps(info))
    (directory / "results.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in results))
    summary = {"complete": True, "samples": len(results), "judged": len(results), "failed_generations": [],
               **PaperMetrics().aggregate(results, None)}
    (directory / "summary.json").write_text(json.dumps(summary))
    return directory


def draws_of(verdicts: list[str], api: str = "x", draw: int = 0) -> list[SampleResult]:
    return [SampleResult(sample=f"{api}/{i}", draw=draw, api=api, verdict=v, url="correct", method="correct",
                         endpoint="correct", arguments={"params": {"p": "correct" if v == "correct" else "missing"}},
                         expected_arguments={"params": 1}) for i, v in enumerate(verdicts)]


def test_the_rows_of_a_hand_computed_run(tmp_path):
    assert list(HAND_ROWS) == ROW_NAMES
    terms = point_values(task_terms(HAND))
    report = build_report(load_runs([write_run(tmp_path / "hand", HAND)]), resamples=200)
    (table,) = report.tables
    for row, cells in table.rows:
        assert cells[0].value == pytest.approx(HAND_ROWS[row], abs=1e-12), row
        assert terms[row] == pytest.approx(HAND_ROWS[row], abs=1e-12), row
        if row in RATE_ROWS:
            low, high = cells[0].interval
            assert 0.0 <= low <= high <= 1.0
    by_api = build_report(load_runs([tmp_path / "hand"]), by_api=True, resamples=200).tables[0]
    assert by_api.columns == ["Overall", "a", "b"]
    rows = dict(by_api.rows)
    assert [c.value for c in rows["Executable implementations (t)"]] == [0.75, 1.0, 0.0]
    assert [c.best for c in rows["Executable implementations (t)"]] == [False, True, False]
    assert [c.best for c in rows["Total errors"]] == [False, True, False]  # lower is better


def test_best_values_are_marked_per_row_in_the_right_direction(tmp_path):
    good = write_run(tmp_path / "good", draws_of(["correct"] * 8 + ["wrong"] * 2), model="good")
    bad = write_run(tmp_path / "bad", draws_of(["correct"] * 3 + ["wrong"] * 7), model="bad")
    (table,) = build_report(load_runs([good, bad]), resamples=100).tables
    rows = dict(table.rows)
    assert [c.best for c in rows["Correct implementations (t)"]] == [True, False]
    assert [c.best for c in rows["Missing arguments (t)"]] == [True, False]
    assert [c.best for c in rows["Illegal implementations (t)"]] == [False, False]  # a tie marks nothing


def test_full_and_argument_completion_runs_are_separate_tables(tmp_path):
    full = write_run(tmp_path / "f", HAND)
    argument = write_run(tmp_path / "g", HAND, setup="argument")
    report = build_report(load_runs([argument, full]), resamples=0)
    assert [t.title for t in report.tables] == ["Full completion", "Argument completion"]
    assert [t.runs for t in report.tables] == [["f"], ["g"]]


def test_bootstrap_intervals_are_seed_stable_and_sensible():
    pattern = ["correct", "wrong", "correct", "illegal", "correct"] * 40  # 200 tasks, 60 % correct
    terms = task_terms(draws_of(pattern))
    first = bootstrap_intervals(terms, resamples=2000, seed=7)
    assert bootstrap_intervals(terms, resamples=2000, seed=7) == first  # same seed, same interval
    other = bootstrap_intervals(terms, resamples=2000, seed=8)
    low, high = first["Correct implementations (t)"]
    assert low < 0.6 < high
    assert abs(low - other["Correct implementations (t)"][0]) < 0.02
    assert abs(high - other["Correct implementations (t)"][1]) < 0.02
    normal = 2 * 1.96 * math.sqrt(0.6 * 0.4 / 200)
    assert (high - low) == pytest.approx(normal, rel=0.15)
    assert first["Executable implementations (t)"] == (1.0, 1.0)
    assert first["Correct methods (e)"] == (1.0, 1.0)


def test_bootstrap_resamples_tasks_not_draws():
    # two draws per task: the task is the unit, so the interval is that of 100 tasks, not 200 draws
    verdicts = ["correct"] * 50 + ["wrong"] * 50
    both = draws_of(verdicts) + draws_of(verdicts, draw=1)
    low, high = bootstrap_intervals(task_terms(both), resamples=2000, seed=0)["Correct implementations (t)"]
    assert (high - low) == pytest.approx(2 * 1.96 * math.sqrt(0.25 / 100), rel=0.15)


def test_the_paired_test_on_a_constructed_pair():
    a = draws_of(["correct"] * 60 + ["wrong"] * 40)
    b = draws_of(["correct"] * 40 + ["wrong"] * 50 + ["correct"] * 10)
    test = paired_test(a, b, resamples=2000, seed=0)
    assert test.method == "exact McNemar"
    assert (test.a_only, test.b_only, test.tasks) == (20, 10, 100)
    assert test.difference == pytest.approx(0.1)
    expected_p = 2 * sum(math.comb(30, i) for i in range(11)) / 2 ** 30
    assert test.p_value == pytest.approx(expected_p) and test.p_value == pytest.approx(0.0987, abs=1e-4)
    low, high = test.interval
    assert low < 0.1 < high
    assert mcnemar_exact(5, 5) == 1.0 and mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(0, 10) == pytest.approx(2 / 2 ** 10)

    several_a = a + draws_of(["correct"] * 60 + ["wrong"] * 40, draw=1)
    several_b = draws_of(["wrong"] * 100) + draws_of(["wrong"] * 100, draw=1)
    strong = paired_test(several_a, several_b, resamples=2000, seed=0)
    assert strong.method == "paired permutation" and strong.p_value < 0.001
    with pytest.raises(ValueError):
        paired_test(a, draws_of(["correct"] * 99))


def test_paired_tests_run_on_the_shared_tasks_and_say_why_a_pair_has_none(tmp_path):
    a = write_run(tmp_path / "a", draws_of(["correct"] * 60 + ["wrong"] * 40), model="A")
    b = write_run(tmp_path / "b", draws_of(["correct"] * 40 + ["wrong"] * 50 + ["correct"] * 10), model="B")
    c = write_run(tmp_path / "c", draws_of(["correct"] * 3), model="C")  # 3 of a's and b's tasks
    d = write_run(tmp_path / "d", draws_of(["correct"] * 3, api="y"), model="D")  # no task in common
    report = build_report(load_runs([a, b, c, d]), resamples=500)
    assert [(t["run_a"], t["run_b"], t["tasks"]) for t in report.paired] == [("a", "b", 100), ("a", "c", 3),
                                                                              ("b", "c", 3)]
    assert report.paired[0]["method"] == "exact McNemar" and "shared_only" not in report.paired[0]
    assert report.paired[1]["shared_only"] == {"a": 100, "b": 3}
    assert "on the 3 tasks both judged, of 100 and 3" in describe_paired(report.paired[1])
    assert report.paired_notes == [f"{x} · {n} samples vs D · 3 samples: no paired test (no task judged in both)."
                                   for x, n in (("A", 100), ("B", 100), ("C", 3))]
    table = report.tables[0]
    assert table.columns == ["A · 100 samples", "B · 100 samples", "C · 3 samples", "D · 3 samples"]
    assert table.caption == "hand · axios_js · full · unconstrained · reference mode"
    assert table.notes == ["The runs cover different tasks (samples judged: 100, 100, 3, 3, in order, none judged "
                           "in all of them): their rates are not directly comparable; paired tests use the tasks "
                           "each pair shares."]
    assert build_report(load_runs([a, b]), resamples=0).paired_notes == ["No paired tests: --resamples 0."]


def cli() -> typer.Typer:
    app = typer.Typer()
    app.command("report")(report_command)

    @app.command("noop")
    def noop() -> None:  # a second command keeps typer from folding `report` into the app itself
        pass

    return app


@pytest.fixture
def two_runs(tmp_path):
    return [write_run(tmp_path / "a", draws_of(["correct"] * 6 + ["wrong"] * 4), model="A"),
            write_run(tmp_path / "b", draws_of(["correct"] * 3 + ["illegal"] * 7), model="B")]


def invoke(*args: str) -> str:
    done = CliRunner().invoke(cli(), ["report", *args])
    assert done.exit_code == 0, done.output
    return done.stdout


def test_csv_and_json_formats(two_runs, tmp_path):
    rows = list(csv.DictReader(io.StringIO(invoke(*map(str, two_runs), "--format", "csv", "--resamples", "300"))))
    assert len(rows) == 2 * len(ROW_NAMES)
    correct = [r for r in rows if r["row"] == "Correct implementations (t)"]
    assert [float(r["value"]) for r in correct] == [0.6, 0.3] and [r["best"] for r in correct] == ["1", "0"]
    assert all(float(r["ci_low"]) <= float(r["value"]) <= float(r["ci_high"]) for r in correct)
    out = tmp_path / "r.json"
    invoke(*map(str, two_runs), "--format", "json", "--out", str(out), "--resamples", "300", "--seed", "3")
    data = json.loads(out.read_text())
    assert data["bootstrap"] == {"resamples": 300, "seed": 3, "confidence": 0.95}
    table = data["tables"][0]
    assert table["rows"]["Correct implementations (t)"][0]["value"] == 0.6
    assert data["paired_tests"][0]["method"] == "exact McNemar"


def test_markdown_format_bolds_the_best_and_brackets_intervals(two_runs):
    text = invoke(*map(str, two_runs), "--format", "md", "--resamples", "300")
    line = next(l for l in text.splitlines() if l.startswith("| Correct implementations (t) |"))
    assert re.fullmatch(r"\| Correct implementations \(t\) \| \*\*60\.0 \[\d+\.\d, \d+\.\d\]\*\* \| "
                        r"30\.0 \[\d+\.\d, \d+\.\d\] \|", line), line
    assert "## Paired tests" in text and "exact McNemar p = " in text
    plain = markdown_report([(str(d), load_run(d), load_summary(d)) for d in two_runs[:1]])
    assert "| Correct implementations (t) | 60.0 |" in plain and "## x — Full completion" in plain


def test_html_format_is_self_contained_with_plots_next_to_it(two_runs, tmp_path):
    out = tmp_path / "site" / "report.html"
    invoke(*map(str, two_runs), "--format", "html", "--out", str(out), "--resamples", "300")
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 3
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)  # nothing to fetch
    assert "@import" not in page and not re.search(r"url\((?!#)", page)  # only in-page references
    assert page.count('class="best"') > 0 and "exact McNemar" in page
    for kind in ("verdicts", "errors", "precision-recall"):
        assert (out.parent / f"report-full-completion-{kind}.png").read_bytes().startswith(b"\x89PNG")
        assert "<svg" in (out.parent / f"report-full-completion-{kind}.svg").read_text()
    stdout_page = invoke(*map(str, two_runs), "--format", "html", "--resamples", "0")
    assert stdout_page.count("<svg") == 3 and "show intervals" not in stdout_page


def test_unknown_format_is_refused(two_runs, tmp_path):
    from wapii_core.base.errors import WapiiError

    done = CliRunner().invoke(cli(), ["report", str(two_runs[0]), "--format", "pdf"])
    assert isinstance(done.exception, WapiiError)


def test_other_metric_providers_get_their_own_tables(tmp_path):
    run = write_run(tmp_path / "p", draws_of(["correct"] * 6 + ["wrong"] * 4))
    summary = json.loads((run / "summary.json").read_text())
    summary["metrics"] = {"pass_at_k": {"tasks": 10, "draws": 1, "pass@1": 0.6,
                                        "per_api": {"x": {"tasks": 10, "draws": 1, "pass@1": 0.6}}}}
    (run / "summary.json").write_text(json.dumps(summary))
    text = invoke(str(run), "--format", "md", "--resamples", "0")
    # a run written before providers declared their values: the installed provider's declarations
    assert "## pass_at_k metrics" in text and "| pass@1 | 60.0 % |" in text and "| tasks | 10 |" in text
    assert "- pass@1 (rate, in %): unbiased estimate" in text
    by_api = invoke(str(run), "--by-api", "--format", "md", "--resamples", "0")
    assert "## p by API: pass_at_k metrics" in by_api and "| pass@1 | 60.0 % | 60.0 % |" in by_api


def test_a_providers_declared_kinds_nested_values_and_descriptions_are_shown(tmp_path):
    run = write_run(tmp_path / "p", draws_of(["correct"] * 6 + ["wrong"] * 4))
    summary = json.loads((run / "summary.json").read_text())
    summary["metrics"] = {"mine": {"share": 0.25, "calls": 3, "latency": 12.3456,
                                   "verdicts": {"correct": 6, "wrong": 4}, "flag": True}}
    summary["metric_kinds"] = {"mine": {"share": {"kind": "rate", "description": "a quarter"},
                                        "latency": {"kind": "mean", "description": "milliseconds per call"},
                                        "verdicts.*": {"kind": "count", "description": "samples with that verdict"}}}
    (run / "summary.json").write_text(json.dumps(summary))
    text = invoke(str(run), "--format", "md", "--resamples", "0")
    assert "| share | 25.0 % |" in text and "| calls | 3 |" in text and "| latency | 12.3 |" in text
    assert "| verdicts.correct | 6 |" in text and "| verdicts.wrong | 4 |" in text  # nested: not dropped
    assert "flag" not in text.split("## mine metrics")[1]  # not a number
    assert "- share (rate, in %): a quarter" in text and "- verdicts.wrong (count): samples with that verdict" in text




def test_columns_are_labelled_by_what_differs_and_the_rest_is_said_once(tmp_path):
    runs = [write_run(tmp_path / s, draws_of(["correct"] * 4), model="org/m", setting=s)
            for s in ("unconstrained", "constrained", "rag")]
    table = build_report(load_runs(runs), resamples=0).tables[0]
    assert table.columns == ["unconstrained", "constrained", "rag"]
    assert table.caption == "org/m · hand · axios_js · full · reference mode · 4 samples"
    assert table.notes == []
    twins = [write_run(tmp_path / n, draws_of(["correct"] * 4), model="org/m") for n in ("x1", "x2")]
    assert build_report(load_runs(twins), resamples=0).tables[0].columns == ["x1", "x2"]
    text = markdown_report([(d.name, load_run(d), load_summary(d)) for d in runs])
    assert "All columns: org/m · hand · axios_js · full · reference mode · 4 samples." in text
    assert "- (t): share of all judged samples." in text and "docs/metrics.md" in text


def test_a_run_over_part_of_its_dataset_says_n_of_m_tasks_in_every_format(tmp_path):
    partial = write_run(tmp_path / "three", draws_of(["correct", "wrong", "illegal"]), model="m")
    summary = json.loads((partial / "summary.json").read_text())
    (partial / "summary.json").write_text(json.dumps({**summary, "tasks": 3, "tasks_of": 26}))
    flat = lambda text: " ".join(text.split())  # noqa: E731 (the terminal wraps its caption)
    for terminal in ([], ["--full"]):  # the headline table and the full one
        assert "All columns: m · hand · axios_js · full · unconstrained · reference mode · 3 of 26 tasks." in \
            flat(invoke(str(partial), *terminal, "--resamples", "0"))
    assert "All columns: m · hand · axios_js · full · unconstrained · reference mode · 3 of 26 tasks." in \
        invoke(str(partial), "--format", "md", "--resamples", "0")
    assert "All columns: m · hand · axios_js · full · unconstrained · reference mode · 3 of 26 tasks</p>" in \
        invoke(str(partial), "--format", "html", "--resamples", "0")
    data = json.loads(invoke(str(partial), "--format", "json", "--resamples", "0"))
    assert data["tables"][0]["caption"].endswith(" · 3 of 26 tasks")
    assert (data["runs"][0]["summary"]["tasks"], data["runs"][0]["summary"]["tasks_of"]) == (3, 26)
    whole = write_run(tmp_path / "all", draws_of(["correct"] * 3), model="m")
    summary = json.loads((whole / "summary.json").read_text())
    (whole / "summary.json").write_text(json.dumps({**summary, "tasks": 3, "tasks_of": 3}))
    rows = list(csv.DictReader(io.StringIO(invoke(str(partial), str(whole), "--format", "csv", "--resamples", "0"))))
    assert {r["column"] for r in rows} == {"3 of 26 tasks", "3 samples"}  # the scope sets the columns apart
    summary = json.loads((partial / "summary.json").read_text())
    (partial / "summary.json").write_text(json.dumps({**summary, "samples": 6, "judged": 5}))  # two draws, one failed
    (table,) = build_report(load_runs([partial]), resamples=0).tables
    assert table.caption.endswith(" · 3 of 26 tasks, 5 of 6 judged")
