"""The built-in metric provider ``wapii``: the paper's table rows (docs: metrics.md §7-8).

The rows are declared in :mod:`wapii_core.judge.rows`. Every row that names a reference statistic is
read off :func:`~wapii_core.judge.refstats.reference_statistics` (the reference pipeline's own
statistics), so the rows reproduce the published numbers by construction; the one change is that
a ratio with an empty denominator is ``None`` (not applicable) instead of the reference's ``0.0``
for "(e)" sample ratios without executable samples. A row without one is ``Σ numerator /
Σ denominator`` of its declared per-sample quantities.
"""

from __future__ import annotations

from typing import Any, Iterable

from wapii_core.base.metric_kinds import Metric
from wapii_core.base.model import ERROR_KINDS, FIELDS, SampleResult
from wapii_core.base.protocols import Dataset
from wapii_core.judge.refstats import reference_statistics
from wapii_core.judge.rows import ARGUMENT_ROW_NAMES, DESCRIPTIONS, PAPER_ROWS, ROW_NAMES, Judged, PaperRow

__all__ = ["ARGUMENT_ROW_NAMES", "DESCRIPTIONS", "ROW_NAMES", "VALUES", "PaperMetrics", "paper_rows"]


def _field_rows(stats: dict[str, Any], key: str) -> dict[str, float | None]:
    """The per-field rows for one field (or ``"all"``): None where the reference has no entry."""
    rows: dict[str, float | None] = {}
    for row in PAPER_ROWS:
        if row.per_field:
            for name, scope in zip(row.names, row.scopes):
                rows[name] = stats[f"{row.statistic}_{'total' if scope == 't' else 'executable'}"].get(key)
    return rows


def _from_statistics(row: PaperRow, stats: dict[str, Any]) -> dict[str, Any]:
    """A row that is not per field, read off the reference's statistics."""
    if row.kind == "count":
        names = (row.statistic,) if isinstance(row.statistic, str) else row.statistic or ()
        return {row.stem: sum(stats[name] for name in names)}
    counts = {"t": stats["samples_total"], "e": stats["samples_executable"]}
    return {name: stats[row.statistic] / counts[scope] if counts[scope] else None  # type: ignore[index]
            for name, scope in zip(row.names, row.scopes)}


def _from_quantities(row: PaperRow, judged: list[Judged]) -> dict[str, Any]:
    """A row without a reference statistic: its quantities summed over the samples."""
    if row.kind == "count":
        total = sum(row.numerator(s) for s in judged)
        return {row.stem: int(total) if float(total).is_integer() else total}
    out: dict[str, Any] = {}
    for name, scope in zip(row.names, row.scopes):
        num, den = row.terms(scope)
        denominator = sum(den(s) for s in judged)
        out[name] = sum(num(s) for s in judged) / denominator if denominator else None
    return out


def paper_rows(results: Iterable[SampleResult]) -> dict[str, Any]:
    """Every row of :data:`ROW_NAMES`, plus ``"per_field"`` (argument rows per field) and ``"counts"``
    (sample counts)."""
    results = list(results)
    stats = reference_statistics(results)
    rows: dict[str, Any] = _field_rows(stats, "all")
    judged: list[Judged] | None = None
    for row in PAPER_ROWS:
        if row.per_field:
            continue
        if row.statistic is not None:
            rows.update(_from_statistics(row, stats))
            continue
        if judged is None:
            from wapii_core.judge.compare import sample_counts

            judged = [Judged(r, sample_counts(r)) for r in results]
        rows.update(_from_quantities(row, judged))
    ordered: dict[str, Any] = {name: rows[name] for name in ROW_NAMES}
    ordered["per_field"] = {field: _field_rows(stats, field) for field in FIELDS}
    counts = {kind: stats[f"samples_{kind}"]
              for kind in ("total", "executable", "correct", "wrong", "illegal", "nonexecutable")}
    counts.update({kind: stats[f"errors_{kind}"] for kind in ERROR_KINDS})
    ordered["counts"] = counts
    return ordered


VALUES: dict[str, Metric] = {
    **{name: Metric(kind, DESCRIPTIONS[name]) for row in PAPER_ROWS for name, kind in
       ((name, row.kind) for name in row.names)},
    **{f"per_field.*.{name}": Metric("rate", f"{DESCRIPTIONS[name][:-1]}, for one argument field (per_field).")
       for name in ARGUMENT_ROW_NAMES},
    "counts.*": Metric("count", "Number of samples of that kind (counts)."),
}
"""What the provider returns: each row's kind (the error rows are counts, the rest shares) and sentence."""


class PaperMetrics:
    """Metric provider ``wapii``: the paper's rows overall and per API."""

    values: dict[str, Metric] = VALUES

    def aggregate(self, results: Iterable[SampleResult], dataset: Dataset | None) -> dict[str, Any]:
        """``{"overall": rows, "per_api": {api: rows}}`` (every API of the dataset, also without results)."""
        results = list(results)
        apis = sorted({*(dataset.specs if dataset is not None else ()), *(r.api for r in results)})
        return {
            "overall": paper_rows(results),
            "per_api": {api: paper_rows([r for r in results if r.api == api]) for api in apis},
        }
