"""The paper's rate rows as ratios of per-task sums, for resampling.

Every rate row of metrics.md §7 is ``Σ numerator / Σ denominator`` over samples: a rate of samples
(denominator 1, or 1 for executable samples), a ratio of argument counts, or a mean of per-sample
ratios (numerator: the sample's ratio, denominator: 1 where the sample has that ratio). This
module computes those two terms for every sample, summed per task (the draws of one task are
one resampling unit), as numpy arrays: a bootstrap resample is then a weighted sum, done for all
resamples at once by one matrix product (:mod:`wapii_core.report.stats`).

:func:`point_values` gives the rates back from the terms; tests check that they equal the
``wapii`` metric provider's rows, so this decomposition cannot drift from metrics.md silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from wapii_core.base.model import ERROR_KINDS, SampleResult

if TYPE_CHECKING:
    import numpy as np

COUNT_ROWS = ("Total errors", "Incomplete implementations", "Runtime errors")
"""Rows that are counts of samples, not rates (no interval)."""

LOWER_IS_BETTER = ("Illegal implementations", "Illegal URLs", "Illegal methods", "Missing arguments",
                   "Unexpected arguments", "Unnecessary arguments", "Illegal arguments") + COUNT_ROWS
"""Row stems (without the (t)/(e) suffix) where a smaller value is the better one."""

INCOMPLETE_ERRORS = ("no_request", "incomplete_request", "timeout", "unsatisfiable")

# name stem -> (numerator quantity, denominator quantity over all samples, ... over executable samples);
# a numerator that non-executable samples contribute to has an "_exe" variant for the (e) row
_PAIRED: dict[str, tuple[str, str, str]] = {
    "Correct implementations": ("correct", "one", "exe"),
    "Illegal implementations": ("illegal", "one", "exe"),
    "Correct URLs": ("url_correct", "one", "exe"),
    "Illegal URLs": ("url_illegal", "one", "exe"),
    "Correct methods": ("method_correct", "one", "exe"),
    "Illegal methods": ("method_illegal", "one", "exe"),
    "Correct argument names": ("correct_name", "expected", "expected_exe"),
    "Correct argument values": ("correct_value", "expected", "expected_exe"),
    "Missing arguments": ("missing", "expected", "expected_exe"),
    "Unexpected arguments": ("unexpected", "all", "all_exe"),
    "Unnecessary arguments": ("unnecessary", "all", "all_exe"),
    "Illegal arguments": ("illegal_args", "all", "all_exe"),
    "Mean argument precision": ("precision", "has_precision", "has_precision"),
    "Mean argument recall": ("recall", "has_recall_t", "has_recall_e"),
    "Mean argument Jaccard index": ("jaccard", "has_jaccard_t", "has_jaccard_e"),
    "Mean argument value conditional accuracy": ("cond_accuracy", "has_cond_accuracy", "has_cond_accuracy"),
}


def _rate_rows() -> dict[str, tuple[str, str]]:
    rows = {"Executable implementations (t)": ("exe", "one")}
    for stem, (num, den_t, den_e) in _PAIRED.items():
        rows[f"{stem} (t)"] = (num, den_t)
        rows[f"{stem} (e)"] = (f"{num}_exe" if num == "missing" else num, den_e)
    return rows


RATE_ROWS: dict[str, tuple[str, str]] = _rate_rows()
"""Rate row -> (numerator quantity, denominator quantity) of :func:`sample_quantities`."""

COUNT_QUANTITIES = {"Total errors": "nonexecutable", "Incomplete implementations": "incomplete",
                    "Runtime errors": "runtime"}


def lower_is_better(row: str) -> bool:
    """Whether a smaller value of ``row`` is better (illegal, unexpected, missing, errors...)."""
    stem = row.removesuffix(" (t)").removesuffix(" (e)")
    return stem in LOWER_IS_BETTER


def sample_quantities(result: SampleResult) -> dict[str, float]:
    """Every quantity a row needs, for one sample, from the comparison's own counts
    (:func:`wapii_core.judge.compare.sample_counts`; metrics.md §6-7)."""
    from wapii_core.judge.compare import sample_counts

    counts = sample_counts(result)
    executable = counts.executable
    if result.error is not None and result.error not in ERROR_KINDS:
        raise ValueError(f"sample {result.sample}: unknown error kind {result.error!r}")

    def total(bucket: dict[str, int]) -> float:
        return float(bucket.get("all", 0))

    def ratio(values: dict[str, float]) -> tuple[float, float]:
        """(the sample's ``all`` ratio or 0, whether it has one)."""
        return (values["all"], 1.0) if "all" in values else (0.0, 0.0)

    exe = float(executable)
    # a non-executable sample has no ratios, but counts (with 0) in the (t) means of recall and Jaccard
    # whenever its expected config has any field (metrics.md §6)
    not_run = float(not executable and "all" in counts.expected)
    precision, has_precision = ratio(counts.precision)
    recall, has_recall = ratio(counts.recall)
    jaccard, has_jaccard = ratio(counts.jaccard)
    cond_accuracy, has_cond_accuracy = ratio(counts.value_accuracy_wrt_correct_name)
    expected, everything = total(counts.expected), total(counts.all)
    return dict(
        one=1.0, exe=exe, correct=float(result.verdict == "correct"), illegal=float(result.verdict == "illegal"),
        url_correct=float(result.url == "correct"), url_illegal=float(result.url == "illegal"),
        method_correct=float(result.method == "correct"), method_illegal=float(result.method == "illegal"),
        correct_name=total(counts.correct_name), correct_value=total(counts.correct_value),
        missing=total(counts.missing), missing_exe=total(counts.missing) * exe, unexpected=total(counts.unexpected), unnecessary=total(counts.unnecessary),
        illegal_args=total(counts.illegal), expected=expected, expected_exe=expected * exe, all=everything,
        all_exe=everything * exe, precision=precision, has_precision=has_precision,
        recall=recall, has_recall_t=has_recall + not_run, has_recall_e=has_recall * exe,
        jaccard=jaccard, has_jaccard_t=has_jaccard + not_run, has_jaccard_e=has_jaccard * exe,
        cond_accuracy=cond_accuracy, has_cond_accuracy=has_cond_accuracy,
        nonexecutable=1.0 - exe, incomplete=float(result.error in INCOMPLETE_ERRORS),
        runtime=float(result.error == "runtime_error"),
    )


@dataclass
class Terms:
    """Per-task numerators and denominators of every rate row, and per-task counts.

    ``num`` and ``den`` have shape (tasks, rows) with rows in :data:`RATE_ROWS` order;
    ``counts`` has shape (tasks, count rows) in :data:`COUNT_ROWS` order.
    """

    tasks: list[str]
    num: "np.ndarray"
    den: "np.ndarray"
    counts: "np.ndarray"


def task_terms(results: Iterable[SampleResult]) -> Terms:
    """Sum every sample's terms per task (sample id), tasks in order of first appearance."""
    import numpy as np

    rows = list(RATE_ROWS.values())
    index: dict[str, int] = {}
    num: list[list[float]] = []
    den: list[list[float]] = []
    counts: list[list[float]] = []
    for result in results:
        q = sample_quantities(result)
        position = index.setdefault(result.sample, len(index))
        if position == len(num):
            num.append([0.0] * len(rows))
            den.append([0.0] * len(rows))
            counts.append([0.0] * len(COUNT_ROWS))
        for j, (n, d) in enumerate(rows):
            num[position][j] += q[n]
            den[position][j] += q[d]
        for j, row in enumerate(COUNT_ROWS):
            counts[position][j] += q[COUNT_QUANTITIES[row]]
    width = len(rows)
    return Terms(list(index), np.array(num, dtype=float).reshape(-1, width),
                 np.array(den, dtype=float).reshape(-1, width),
                 np.array(counts, dtype=float).reshape(-1, len(COUNT_ROWS)))


def point_values(terms: Terms) -> dict[str, float | None]:
    """Every row's value from the terms (None where the denominator is empty)."""
    num, den = terms.num.sum(axis=0), terms.den.sum(axis=0)
    values: dict[str, float | None] = {row: (float(n / d) if d else None)
                                       for row, n, d in zip(RATE_ROWS, num, den)}
    values.update({row: float(c) for row, c in zip(COUNT_ROWS, terms.counts.sum(axis=0))})
    return values
