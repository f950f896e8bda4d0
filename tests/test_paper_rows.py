"""The registry of the paper's rows (wapii_core/judge/rows.py): each row declared once, read by every consumer."""

from __future__ import annotations

from dataclasses import replace

import pytest

from wapii_core.base.model import SampleResult
from wapii_core.judge import metrics
from wapii_core.judge.compare import sample_counts
from wapii_core.judge.rows import (COUNT_ROWS, DESCRIPTIONS, PAPER_ROWS, ROW_NAMES, Judged, PaperRow, lower_is_better,
                                   paper_row)
from wapii_core.report.legend import legend
from wapii_core.report.model import Cell, Table
from wapii_core.report.rate_terms import RATE_ROWS

from test_metrics import RUN


def _mixed() -> list[SampleResult]:
    """RUN and its mirror image: an illegal sample, an incomplete one, a sample without arguments."""
    return RUN + [
        SampleResult(sample="c/0", api="c", verdict="illegal", url="illegal", method="correct", endpoint="illegal",
                     arguments={"params": {"q": "illegal", "limit": "correct"}}),
        SampleResult(sample="c/1", api="c", verdict="nonexecutable", error="incomplete_request",
                     expected_arguments={"params": 1}),
        SampleResult(sample="c/2", api="c", verdict="correct", url="correct", method="correct", endpoint="correct"),
    ]


@pytest.mark.parametrize("results", [RUN, _mixed(), RUN[1:2]], ids=["hand", "mixed", "only-nonexecutable"])
def test_a_row_without_a_reference_statistic_is_its_quantities_summed(results: list[SampleResult]) -> None:
    """The judge reads each declared row off the reference's statistics; the same row declared without
    one (as a new row is) gives the same value from its quantities alone."""
    judged = [Judged(r, sample_counts(r)) for r in results]
    reference = metrics.paper_rows(results)
    for row in PAPER_ROWS:
        alone = metrics._from_quantities(replace(row, statistic=None, per_field=False), judged)
        for name, value in alone.items():
            assert value == pytest.approx(reference[name], abs=1e-12), name


def test_every_row_is_declared_once_with_what_its_readers_need() -> None:
    assert len({row.stem for row in PAPER_ROWS}) == len(PAPER_ROWS)
    assert ROW_NAMES == [name for row in PAPER_ROWS for name in row.names]
    assert list(RATE_ROWS) + list(COUNT_ROWS) == [n for n in ROW_NAMES if n not in COUNT_ROWS] + list(COUNT_ROWS)
    assert set(metrics.VALUES) >= set(ROW_NAMES) and all(metrics.VALUES[n].description == DESCRIPTIONS[n]
                                                         for n in ROW_NAMES)
    assert [n for n in ROW_NAMES if lower_is_better(n)] == [
        f"{stem} ({s})" for stem in ("Illegal implementations", "Illegal URLs", "Illegal methods", "Missing arguments",
                                     "Unexpected arguments", "Unnecessary arguments", "Illegal arguments")
        for s in "te"] + list(COUNT_ROWS)
    assert paper_row("Correct URLs") is paper_row("Correct URLs (e)") and paper_row("Correct URLs (x)") is None


def test_a_per_field_row_must_read_a_per_field_statistic() -> None:
    with pytest.raises(ValueError, match="per-field"):
        PaperRow("Arguments", "anything", PAPER_ROWS[0].numerator, PAPER_ROWS[0].denominator, per_field=True)


def test_the_legend_of_a_paper_table_says_what_each_of_its_rows_counts() -> None:
    names = ["Correct URLs (t)", "Correct URLs (e)", "Total errors"]
    table = Table("Full completion", "full", ["run"], [(name, [Cell(0.5)]) for name in names])
    lines = legend(table, intervals=False)
    assert "Correct URLs: share of samples whose URL matches the expected path template." in lines
    assert "Total errors: number of samples that could not be executed." in lines
    assert sum(line.startswith("Correct URLs:") for line in lines) == 1
    other = replace(table, kind="provider")
    assert not any(line.startswith("Correct URLs:") for line in legend(other, intervals=False))
