"""The paper's metric rows, each declared once (docs: metrics.md §7-8).

:data:`PAPER_ROWS` is the one declaration of the rows of ``summary.json``, in the paper's order. Each
:class:`PaperRow` says what the row counts and how it reads:

- ``numerator`` and ``denominator``: per-sample quantities (functions of one judged :class:`Judged`
  sample); the row's value over all samples, its ``(t)`` row, is ``Σ numerator / Σ denominator``,
  and its ``(e)`` row is the same over the executable samples only (both quantities times
  :func:`executable`). A count row has a numerator only: its value is ``Σ numerator``;
- ``statistic``: the reference pipeline's statistic (:func:`wapii_core.judge.refstats.reference_statistics`)
  the judge reads the row from, so that it reproduces the published numbers by construction: a
  sample count (divided by all or by the executable samples), for a ``per_field`` row the prefix of
  its ``_total`` / ``_executable`` per-field ratio dicts, for a count row the counts summed. A row
  without one is computed from its quantities (the same ``Σ numerator / Σ denominator``);
- ``description`` (the legend's and ``summary.json``'s text), ``kind`` (``rate`` or ``count``),
  ``lower_is_better``, ``per_field`` (whether it also exists per argument field), ``scopes`` (``(t)``
  and ``(e)``, or ``(t)`` only) and ``filter`` (the viewer's filter for the samples it counts).

Readers: the judge's metric provider (:mod:`wapii_core.judge.metrics`), the report's resampling
terms (:mod:`wapii_core.report.rate_terms`), its tables, leaderboard and legend, and the viewer
(:mod:`wapii_core.view.bundle`). Adding a row is adding one :class:`PaperRow` here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Literal

from wapii_core.base.model import SampleResult

if TYPE_CHECKING:
    from wapii_core.judge.compare import SampleCounts


@dataclass(frozen=True)
class Judged:
    """What a quantity reads of one judged sample: its result and its argument counts
    (:func:`wapii_core.judge.compare.sample_counts`)."""

    result: SampleResult
    counts: "SampleCounts"


Quantity = Callable[[Judged], float]
"""A number of one judged sample that a row sums (a 0/1 flag, a count of arguments, a ratio)."""

INCOMPLETE_ERRORS = ("no_request", "incomplete_request", "timeout", "unsatisfiable")
"""The error kinds of an incomplete implementation (no complete call)."""

EXECUTABLE_VERDICTS = ("correct", "wrong", "illegal")
"""The verdicts of a sample that ran (every verdict but ``nonexecutable``)."""

ARGUMENT_BUCKETS = ("correct_name", "correct_value", "missing", "unexpected", "unnecessary", "illegal")
"""The argument counts of :class:`SampleCounts` the viewer's ``arguments`` facet filters on."""


def argument_buckets(counts: "SampleCounts") -> tuple[str, ...]:
    """The buckets of :data:`ARGUMENT_BUCKETS` one sample has arguments in (what an argument row sums)."""
    return tuple(bucket for bucket in ARGUMENT_BUCKETS if getattr(counts, bucket).get("all", 0) > 0)


ViewerFilter = dict[str, tuple[str, ...]]
"""The viewer's filter for the samples a row counts: facet -> the values it accepts (a sample matches
when, for every facet, its value is one of them). Facets: ``verdict``, ``error``, ``url``, ``method``
(the result line's), ``arguments`` (the argument buckets of :class:`SampleCounts` the sample has a
positive count in: ``correct_name``, ``correct_value``, ``missing``, ``unexpected``, ``unnecessary``,
``illegal``)."""


# ---- quantities: what one sample contributes --------------------------------------------------------

def one(s: Judged) -> float:
    return 1.0


def executable(s: Judged) -> float:
    return float(s.counts.executable)


def _verdict(attribute: str, value: str) -> Quantity:
    def quantity(s: Judged) -> float:
        return float(getattr(s.result, attribute) == value)

    quantity.__name__ = f"{attribute}_{value}"
    return quantity


def _arguments(bucket: str) -> Quantity:
    """The sample's count of arguments in ``bucket`` (``"all"``: over every field)."""

    def quantity(s: Judged) -> float:
        return float(getattr(s.counts, bucket).get("all", 0))

    quantity.__name__ = f"arguments_{bucket}"
    return quantity


def _ratio(bucket: str, not_run_counts: bool = False) -> tuple[Quantity, Quantity]:
    """(the sample's ratio ``bucket`` or 0, whether it has one): a mean's numerator and denominator.
    With ``not_run_counts``, a non-executable sample whose expected config has any field counts (with 0)
    in the mean over all samples (metrics.md §6: recall and Jaccard)."""

    def value(s: Judged) -> float:
        return getattr(s.counts, bucket).get("all", 0.0)

    def has(s: Judged) -> float:
        has_it = float("all" in getattr(s.counts, bucket))
        if not_run_counts:
            has_it += float(not s.counts.executable and "all" in s.counts.expected)
        return has_it

    value.__name__, has.__name__ = f"{bucket}_ratio", f"has_{bucket}_ratio"
    return value, has


def nonexecutable(s: Judged) -> float:
    return 1.0 - float(s.counts.executable)


def incomplete(s: Judged) -> float:
    return float(s.result.error in INCOMPLETE_ERRORS)


def runtime_error(s: Judged) -> float:
    return float(s.result.error == "runtime_error")


_EXPECTED, _ALL = _arguments("expected"), _arguments("all")
_PRECISION, _RECALL = _ratio("precision"), _ratio("recall", not_run_counts=True)
_JACCARD, _VALUE_ACCURACY = _ratio("jaccard", not_run_counts=True), _ratio("value_accuracy_wrt_correct_name")


# ---- the rows ---------------------------------------------------------------------------------------

Scope = Literal["t", "e"]


@dataclass(frozen=True)
class PaperRow:
    """One row of the paper's table (a rate row gives one row per scope: ``"<stem> (t)"``, ``"<stem> (e)"``)."""

    stem: str
    description: str
    numerator: Quantity
    denominator: Quantity | None = None  # None: a count row
    statistic: str | tuple[str, ...] | None = None
    lower_is_better: bool = False
    per_field: bool = False
    scopes: tuple[Scope, ...] = ("t", "e")
    filter: ViewerFilter | None = field(default=None, hash=False)

    def __post_init__(self) -> None:
        if self.per_field and not isinstance(self.statistic, str):
            raise ValueError(f"paper row {self.stem!r}: a per-field row reads a per-field reference statistic")

    @property
    def kind(self) -> Literal["rate", "count"]:
        return "count" if self.denominator is None else "rate"

    @property
    def names(self) -> list[str]:
        """The row names in ``summary.json``: the stem for a count, one per scope for a rate."""
        return [self.stem] if self.kind == "count" else [f"{self.stem} ({scope})" for scope in self.scopes]

    def terms(self, scope: Scope) -> tuple[Quantity, Quantity]:
        """(numerator, denominator) of the row ``scope``; ``(e)``: over executable samples only."""
        if self.denominator is None:
            raise ValueError(f"{self.stem} is a count, not a rate")
        if scope == "t":
            return self.numerator, self.denominator
        num, den = self.numerator, self.denominator
        return (lambda s: num(s) * executable(s)), (lambda s: den(s) * executable(s))

    def viewer_filter(self, scope: Scope | None) -> ViewerFilter | None:
        """The viewer's filter for the samples row ``scope`` counts (those its numerator is positive on):
        :attr:`filter`, for ``(e)`` with the verdict narrowed to the executable ones (as :meth:`terms`)."""
        if self.filter is None or scope != "e":
            return self.filter
        verdicts = tuple(v for v in self.filter.get("verdict", EXECUTABLE_VERDICTS) if v in EXECUTABLE_VERDICTS)
        return {**self.filter, "verdict": verdicts}


PAPER_ROWS: tuple[PaperRow, ...] = (
    PaperRow("Executable implementations",
             "share of samples whose call could be extracted and ran, issuing a request",
             executable, one, "samples_executable", scopes=("t",), filter={"verdict": EXECUTABLE_VERDICTS}),
    PaperRow("Correct implementations", "share of samples whose endpoint and every counted argument are correct",
             _verdict("verdict", "correct"), one, "samples_correct", filter={"verdict": ("correct",)}),
    PaperRow("Illegal implementations",
             "share of samples with an endpoint or an argument that the spec does not define",
             _verdict("verdict", "illegal"), one, "samples_illegal", lower_is_better=True,
             filter={"verdict": ("illegal",)}),
    PaperRow("Correct URLs", "share of samples whose URL matches the expected path template",
             _verdict("url", "correct"), one, "urls_correct", filter={"url": ("correct",)}),
    PaperRow("Illegal URLs", "share of samples whose URL matches no path of the spec",
             _verdict("url", "illegal"), one, "urls_illegal", lower_is_better=True, filter={"url": ("illegal",)}),
    PaperRow("Correct methods", "share of samples with the expected HTTP method",
             _verdict("method", "correct"), one, "methods_correct", filter={"method": ("correct",)}),
    PaperRow("Illegal methods", "share of samples whose method no matching path of the spec defines",
             _verdict("method", "illegal"), one, "methods_illegal", lower_is_better=True,
             filter={"method": ("illegal",)}),
    PaperRow("Correct argument names",
             "expected arguments present under the right name, over all expected arguments",
             _arguments("correct_name"), _EXPECTED, "arguments_correct_name_wrt_expected", per_field=True,
             filter={"arguments": ("correct_name",)}),
    PaperRow("Correct argument values",
             "expected arguments present with the expected value, over all expected arguments",
             _arguments("correct_value"), _EXPECTED, "arguments_correct_value_wrt_expected", per_field=True,
             filter={"arguments": ("correct_value",)}),
    PaperRow("Missing arguments", "expected arguments absent from the request, over all expected arguments",
             _arguments("missing"), _EXPECTED, "arguments_missing_wrt_expected", lower_is_better=True,
             per_field=True, filter={"arguments": ("missing",)}),
    PaperRow("Unexpected arguments", "arguments the request has but the expected one lacks, over all arguments",
             _arguments("unexpected"), _ALL, "arguments_unexpected_wrt_all", lower_is_better=True, per_field=True,
             filter={"arguments": ("unexpected",)}),
    PaperRow("Unnecessary arguments",
             "unexpected arguments that the expected endpoint defines, over all arguments",
             _arguments("unnecessary"), _ALL, "arguments_unnecessary_wrt_all", lower_is_better=True,
             per_field=True, filter={"arguments": ("unnecessary",)}),
    PaperRow("Illegal arguments",
             "unexpected arguments that the expected endpoint does not define, over all arguments",
             _arguments("illegal"), _ALL, "arguments_illegal_wrt_all", lower_is_better=True, per_field=True,
             filter={"arguments": ("illegal",)}),
    PaperRow("Mean argument precision",
             "mean over executable samples with arguments of correctly named / generated arguments",
             *_PRECISION, "argument_name_mean_precision_wrt", per_field=True),
    PaperRow("Mean argument recall",
             "mean over samples with expected arguments of correctly named / expected arguments",
             *_RECALL, "argument_name_mean_recall_wrt", per_field=True),
    PaperRow("Mean argument Jaccard index",
             "mean over samples with arguments of correctly named / all (expected + unexpected)",
             *_JACCARD, "argument_name_mean_jaccard_wrt", per_field=True),
    PaperRow("Mean argument value conditional accuracy",
             "mean over samples with correctly named arguments of the share with the correct value",
             *_VALUE_ACCURACY, "argument_value_mean_accuracy_wrt_correct", per_field=True),
    PaperRow("Total errors", "number of samples that could not be executed",
             nonexecutable, statistic="errors_total", lower_is_better=True, filter={"verdict": ("nonexecutable",)}),
    PaperRow("Incomplete implementations",
             "number of samples without a complete call (no request, incomplete call, generation timeout or "
             "unsatisfiable constraints)",
             incomplete, statistic=tuple(f"errors_{kind}" for kind in INCOMPLETE_ERRORS), lower_is_better=True,
             filter={"error": INCOMPLETE_ERRORS}),
    PaperRow("Runtime errors", "number of samples whose call failed when run",
             runtime_error, statistic="errors_runtime_error", lower_is_better=True,
             filter={"error": ("runtime_error",)}),
)
"""Every row of the paper's table, in its order."""


# ---- what the readers look up -----------------------------------------------------------------------

ROWS_BY_NAME: dict[str, tuple[PaperRow, Scope | None]] = {
    name: (row, scope) for row in PAPER_ROWS
    for name, scope in (zip(row.names, row.scopes) if row.kind == "rate" else [(row.stem, None)])
}
"""Row name (``"Correct URLs (e)"``) -> (its declaration, its scope; None for a count)."""

ROW_NAMES: list[str] = list(ROWS_BY_NAME)
"""The rows of ``summary.json``, in the paper's order."""

COUNT_ROWS: tuple[str, ...] = tuple(name for name, (row, _) in ROWS_BY_NAME.items() if row.kind == "count")
"""Rows that are counts of samples, not rates (no interval)."""

RATE_ROW_NAMES: tuple[str, ...] = tuple(name for name in ROW_NAMES if name not in COUNT_ROWS)
"""Rows that are rates, in order."""

ARGUMENT_ROW_NAMES: list[str] = [name for name, (row, _) in ROWS_BY_NAME.items() if row.per_field]
"""The rows that also exist per field (under ``"per_field"``)."""


def _sentence(name: str) -> str:
    row, scope = ROWS_BY_NAME[name]
    if scope is None:
        return row.description.capitalize() + "."
    base = "over all samples" if scope == "t" else "over executable samples only"
    return f"{row.description.capitalize()}, {base}."


DESCRIPTIONS: dict[str, str] = {name: _sentence(name) for name in ROW_NAMES}
"""One sentence per row."""


def paper_row(name: str) -> PaperRow | None:
    """The declaration of row ``name`` (with or without its ``(t)``/``(e)`` suffix); None for another name."""
    if name in ROWS_BY_NAME:
        return ROWS_BY_NAME[name][0]
    return next((row for row in PAPER_ROWS if row.stem == name), None)


def lower_is_better(name: str) -> bool:
    """Whether a smaller value of row ``name`` is better (illegal, unexpected, missing, errors...)."""
    row = paper_row(name)
    return row is not None and row.lower_is_better
