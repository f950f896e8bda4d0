"""The paper's rate rows as ratios of per-task sums, for resampling.

Every rate row of metrics.md §7 is ``Σ numerator / Σ denominator`` over samples: a rate of samples
(denominator 1, or 1 for executable samples), a ratio of argument counts, or a mean of per-sample
ratios (numerator: the sample's ratio, denominator: 1 where the sample has that ratio); each row
declares its two per-sample quantities in :mod:`wapii_core.judge.rows`. This
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
from wapii_core.judge.rows import COUNT_ROWS, ROWS_BY_NAME, Judged, Quantity, executable

if TYPE_CHECKING:
    import numpy as np

__all__ = ["COUNT_ROWS", "RATE_ROWS", "Terms", "point_values", "task_terms"]

RATE_ROWS: dict[str, tuple[Quantity, Quantity]] = {
    name: row.terms(scope) for name, (row, scope) in ROWS_BY_NAME.items() if scope is not None}
"""Rate row -> (numerator, denominator): its per-sample quantities (:mod:`wapii_core.judge.rows`)."""



def _plan() -> tuple[list[Quantity], list[tuple[int, int, bool]], list[int]]:
    """The distinct quantities the rows read (:func:`executable` first), each evaluated once per sample;
    per rate row (its numerator's index, its denominator's, whether over executable samples only); per
    count row its quantity's index."""
    index: dict[Quantity, int] = {executable: 0}

    def at(quantity: Quantity | None) -> int:
        assert quantity is not None
        return index.setdefault(quantity, len(index))

    rates = [(at(row.numerator), at(row.denominator), scope == "e")
             for row, scope in ROWS_BY_NAME.values() if scope is not None]
    counts = [at(ROWS_BY_NAME[name][0].numerator) for name in COUNT_ROWS]
    return list(index), rates, counts


_QUANTITIES, _RATE_TERMS, _COUNT_TERMS = _plan()


def judged(result: SampleResult) -> Judged:
    """One sample as the rows' quantities read it, with its comparison's own counts
    (:func:`wapii_core.judge.compare.sample_counts`; metrics.md §6-7)."""
    from wapii_core.judge.compare import sample_counts

    if result.error is not None and result.error not in ERROR_KINDS:
        raise ValueError(f"sample {result.sample}: unknown error kind {result.error!r}")
    return Judged(result, sample_counts(result))


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

    width = len(_RATE_TERMS)
    index: dict[str, int] = {}
    num: list[list[float]] = []
    den: list[list[float]] = []
    counts: list[list[float]] = []
    for result in results:
        sample = judged(result)
        position = index.setdefault(result.sample, len(index))
        if position == len(num):
            num.append([0.0] * width)
            den.append([0.0] * width)
            counts.append([0.0] * len(COUNT_ROWS))
        values = [quantity(sample) for quantity in _QUANTITIES]
        exe = values[0]
        task_num, task_den = num[position], den[position]
        for j, (n, d, executable_only) in enumerate(_RATE_TERMS):
            if executable_only:  # the (e) row: both terms over executable samples only (as PaperRow.terms)
                task_num[j] += values[n] * exe
                task_den[j] += values[d] * exe
            else:
                task_num[j] += values[n]
                task_den[j] += values[d]
        for j, q in enumerate(_COUNT_TERMS):
            counts[position][j] += values[q]
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
