"""What a report is made of, and how its values read: the records every report module shares.

:class:`RunData` (a run directory as a report sees it), :class:`Cell`, :class:`Table` and
:class:`Report`, the setups' titles, how a value, a cell, an interval and a paired test are written.
Built by :mod:`wapii_core.report.tables` (the paper's tables), :mod:`wapii_core.report.leaderboard` and
:mod:`wapii_core.report.provider_tables`; rendered by :mod:`wapii_core.report.tables` (Markdown),
:mod:`wapii_core.report.terminal`, :mod:`wapii_core.report.html` and :mod:`wapii_core.report.formats`.
A leaf of ``report/``: it imports no other report module, so none of them needs a deferred import
to reach these records.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wapii_core.base.model import SampleResult
from wapii_core.judge.rows import COUNT_ROWS, ROW_NAMES
from wapii_core.store.record import RunRecord, Summary

RunColumn = tuple[str, RunRecord, Summary]
"""(column title, run.json, summary.json): what ``wapii_core.run.aggregate.finish`` passes."""

SETUP_TITLES = {"full": "Full completion", "argument": "Argument completion", "import": "Import completion"}


@dataclass
class RunData:
    """One run directory as a report sees it; ``results`` is None when no intervals are wanted."""

    name: str
    run: RunRecord
    summary: Summary
    results: list[SampleResult] | None = None

    def with_api(self, api: str) -> "RunData":
        """This run restricted to one API."""
        return RunData(self.name, self.run, self.summary.for_api(api), self.scoped(api)[1])

    @property
    def label(self) -> str:
        """model × setup × setting × adapter."""
        return self.run.label

    def scoped(self, api: str | None) -> tuple[dict[str, Any], list[SampleResult] | None]:
        """The summary values and results of the whole run (``api`` None) or of one API."""
        values = self.summary.values(api)
        results = self.results
        if results is not None and api is not None:
            results = [r for r in results if r.api == api]
        return values, results


@dataclass
class Cell:
    """One value; ``metric`` names the paper row it holds when that is not its table row (leaderboards)."""

    value: float | None
    interval: tuple[float, float] | None = None
    best: bool = False
    metric: str | None = None
    kind: str | None = None  # a metric provider's value: rate, count or mean (None: a paper row)


@dataclass
class Table:
    """One table: ``columns`` titles and ``rows`` of (row name, one cell per column)."""

    title: str
    setup: str | None
    columns: list[str]
    rows: list[tuple[str, list[Cell]]]
    runs: list[str] = field(default_factory=list)  # the run directory name behind each column
    scopes: list[str | None] = field(default_factory=list)  # the API behind each column (None: all)
    kind: str = "paper"  # "paper": the paper's rows; "provider": another metric provider's values; "leaderboard"
    caption: str = ""  # what every column shares (dataset, adapter, setup, ...)
    notes: list[str] = field(default_factory=list)  # what keeps the columns from being compared directly
    descriptions: list[str] = field(default_factory=list)  # what a provider's rows mean (its descriptions)


@dataclass
class Report:
    tables: list[Table]
    runs: list[RunData]
    paired: list[dict[str, Any]] = field(default_factory=list)
    resamples: int = 0
    seed: int = 0
    paired_notes: list[str] = field(default_factory=list)  # why a pair of runs has no paired test


def row_names() -> list[str]:
    """The paper's rows, in order (:mod:`wapii_core.judge.rows`)."""
    return list(ROW_NAMES)


def setups(runs: list[RunData]) -> list[Any]:
    order = list(SETUP_TITLES)
    found = list(dict.fromkeys(r.run.setup for r in runs))
    return sorted(found, key=lambda s: (order.index(s) if s in order else len(order), str(s)))


def format_value(row: str, value: Any) -> str:
    """Rates as percentages with one decimal, counts (count rows, integers) as integers, a missing
    ratio as ``n/a``."""
    if value is None:
        return "n/a"
    if row in COUNT_ROWS or (isinstance(value, int) and not isinstance(value, bool)):
        return str(int(value))
    return f"{100 * float(value):.1f}"


def format_cell(row: str, cell: Cell) -> str:
    """A cell's value: as its provider declared it (:func:`~wapii_core.base.metric_kinds.format_metric`), or
    as :func:`format_value` shows a paper row."""
    if cell.kind is not None:
        from wapii_core.base.metric_kinds import format_metric

        return format_metric(cell.value, cell.kind)
    return format_value(row, cell.value)


def format_interval(interval: tuple[float, float] | None) -> str:
    """``[40.1, 50.2]`` in percent, or an empty string."""
    return f"[{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]" if interval else ""


def describe_paired(test: dict[str, Any]) -> str:
    """One sentence per paired test."""
    low, high = test["interval"]
    a, b = test.get("label_a", test["run_a"]), test.get("label_b", test["run_b"])
    shared = test.get("shared_only")
    tasks = (f"on the {test['tasks']} tasks both judged, of {shared['a']} and {shared['b']}" if shared
             else f"{test['tasks']} tasks")
    return (f"{a} vs {b} ({tasks}): correct implementations "
            f"{100 * test['rate_a']:.1f} % vs {100 * test['rate_b']:.1f} %, difference "
            f"{100 * test['difference']:+.1f} points, 95 % paired bootstrap interval [{100 * low:+.1f}, "
            f"{100 * high:+.1f}], {test['method']} p = {test['p_value']:.4g}{describe_mdd(test)}")


def describe_mdd(test: dict[str, Any]) -> str:
    """``; minimal detectable difference 6.2 points (...)``, saying whether the gap reaches it. Where
    every task differs by the same amount (both runs at 0 % or at 100 %, or one at 100 % and the other
    at 0 %), the differences do not vary and a minimal detectable difference says nothing: the
    sentence says so, with no power claim."""
    mdd = test.get("mdd")
    if mdd is None:
        return ""
    if mdd <= 1e-12:
        a, b = test["rate_a"], test["rate_b"]
        if a == b and a in (0.0, 1.0):
            return (f"; both runs are at {100 * a:.0f} % on every one of these tasks: nothing varies, so there "
                    "is no difference to detect and this size says nothing about the power to detect one")
        return ("; every task differs the same way: nothing varies, so no minimal detectable difference "
                "can be estimated at this size (no power claim)")
    verdict = ("the gap reaches it" if abs(test["difference"]) >= mdd
               else "the gap is below it: it could be noise")
    return (f"; minimal detectable difference {100 * mdd:.1f} points at this size (paired, 80 % power, "
            f"α = 0.05): {verdict}")
