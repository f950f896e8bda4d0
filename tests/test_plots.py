"""The report's plots: shares rather than counts, the tables' names, "none" when empty, titles that
name the table and what its runs share, a colour-blind-safe palette with hatching, labels that fit."""

from __future__ import annotations

import pytest

from test_report import draws_of, write_run
from wapii_core.base.model import SampleResult
from wapii_core.report.plots import ERROR_NAMES, VERDICT_STYLES, error_shares, make_plots, plot_errors, plot_verdicts
from wapii_core.report.tables import build_report, load_runs


def failing(n: int, errors: int) -> list[SampleResult]:
    """``n`` samples, the first ``errors`` of them cut off (incomplete_request), the rest correct."""
    results = draws_of(["correct"] * n)
    for r in results[:errors]:
        r.verdict, r.error, r.arguments, r.url, r.method, r.endpoint = "nonexecutable", "incomplete_request", {}, \
            None, None, None
    return results


@pytest.fixture
def report(tmp_path):
    big = write_run(tmp_path / "big", failing(100, 10), model="big-model")
    small = write_run(tmp_path / "small", failing(10, 1), model="small-model")
    return build_report(load_runs([big, small]), resamples=0)


def test_error_kinds_are_shares_named_as_the_tables_name_them(report):
    table = report.tables[0]
    shares = error_shares(table, report.runs)
    assert [s["Incomplete: call cut off"] for s in shares] == [pytest.approx(0.1), pytest.approx(0.1)]
    assert set(shares[0]) == set(ERROR_NAMES.values()) and "incomplete_request" not in shares[0]
    figure = plot_errors(table, report.runs)
    axes = figure.axes[0]
    assert axes.get_ylabel() == "% of judged samples"
    assert [t.get_text() for t in axes.get_legend().get_texts()] == ["Incomplete: call cut off"]
    assert [round(p.get_height(), 6) for p in axes.patches] == [10.0, 10.0]


def test_an_empty_plot_says_none_and_titles_name_the_table_and_what_the_runs_share(tmp_path):
    clean = build_report(load_runs([write_run(tmp_path / "a", draws_of(["correct"] * 4), model="A"),
                                    write_run(tmp_path / "b", draws_of(["correct"] * 4), model="B")]), resamples=0)
    table = clean.tables[0]
    axes = plot_errors(table, clean.runs).axes[0]
    assert [t.get_text() for t in axes.texts] == ["none: every judged sample ran"]
    title = axes.get_title(loc="left")
    assert title.startswith("Error kinds — Full completion\n") and "hand" in title and "axios_js" in title


def test_verdicts_use_the_okabe_ito_palette_with_hatching_and_labels_that_fit(tmp_path):
    runs = [write_run(tmp_path / f"r{i}", draws_of(["correct", "wrong", "illegal"] * (i + 1)),
                      model=f"organisation/a-rather-long-model-name-{i}") for i in range(6)]
    report = build_report(load_runs(runs), resamples=0)
    axes = plot_verdicts(report.tables[0]).axes[0]
    colours = {"#%02x%02x%02x" % tuple(int(255 * c) for c in patch.get_facecolor()[:3]) for patch in axes.patches}
    assert colours <= {c.lower() for c, _ in VERDICT_STYLES.values()}
    assert {patch.get_hatch() for patch in axes.patches} >= {"//", "xx"}
    labels = axes.get_xticklabels()
    assert len(labels) == 6 and all(label.get_rotation() == 30 for label in labels)
    assert all(max(len(line) for line in label.get_text().splitlines()) <= 14 for label in labels)


def test_plot_files_name_the_run_of_a_one_run_report(tmp_path):
    report = build_report(load_runs([write_run(tmp_path / "solo", draws_of(["correct"] * 3))]), resamples=0)
    assert [p.name for p in make_plots(report)] == ["solo-full-completion-verdicts", "solo-full-completion-errors",
                                                    "solo-full-completion-precision-recall"]
