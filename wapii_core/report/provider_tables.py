"""Report tables of the metric providers other than the paper's (``summary["metrics"]``).

One table per provider: every number it returned, nested ones under their dotted path
(:func:`wapii_core.base.metric_kinds.flatten`), each cell shown as the provider declared its kind
(``summary["metric_kinds"]``, written by the run: a rate as a percentage, a count as a whole
number, a mean as a number), and the table's descriptions explaining each row (shown in its legend).
Runs side by side, or (``by_api``, one run) the columns Overall and each API.
"""

from __future__ import annotations

from typing import Any

from wapii_core.base.metric_kinds import Metric, declared, flatten, kind_of, load_record, per_api
from wapii_core.report.labels import facets, labels
from wapii_core.report.model import Cell, RunData, Table


def provider_tables(runs: list[RunData], prefix: str, by_api: bool) -> list[Table]:
    """The provider tables of ``runs``, labelled like the paper's (:mod:`wapii_core.report.labels`)."""
    tables = []
    names = list(dict.fromkeys(name for r in runs for name in r.summary.metrics))
    for name in names:
        with_it = [r for r in runs if name in r.summary.metrics]
        declarations = _declarations(name, with_it)
        if by_api:
            values = runs[0].summary.metrics[name]
            apis = sorted(per_api(values))
            scopes: list[str | None] = [None, *apis]
            columns = [flatten(values), *(flatten(per_api(values)[a]) for a in apis)]
            titles, run_names = ["Overall", *apis], [runs[0].name] * len(scopes)
            caption = " · ".join(facets(runs[0]).values())
        else:
            columns = [flatten(r.summary.metrics[name]) for r in with_it]
            scopes, run_names = [None] * len(with_it), [r.name for r in with_it]
            titles, caption = labels(with_it)
        rows = list(dict.fromkeys(row for values in columns for row in values))
        if not rows:  # e.g. a provider that failed as a whole: listed under its failures instead
            continue
        table_rows = [(row, [_cell(declarations, row, values.get(row)) for values in columns]) for row in rows]
        tables.append(Table(f"{prefix}{name} metrics", None, titles, table_rows, run_names, scopes, kind="provider",
                            caption=caption, descriptions=_notes(declarations, rows, table_rows)))
    return tables


def _declarations(name: str, runs: list[RunData]) -> dict[str, Metric]:
    """What provider ``name`` declared of its values, as the runs recorded it (the first run's
    declaration of a key wins); for runs written before providers declared them, the installed
    provider's declarations, if it is installed and follows its protocol."""
    declarations: dict[str, Metric] = {}
    for run in reversed(runs):
        declarations.update(load_record(run.summary.kinds_of(name)))
    if declarations:
        return declarations
    from wapii_core.base import plugins
    from wapii_core.base.errors import WapiiError

    try:
        return dict(plugins.metrics.get(name).values)
    except WapiiError:
        return {}


def _cell(declarations: dict[str, Any], row: str, value: Any) -> Cell:
    return Cell(value, kind=kind_of(declarations, row, value))


def _notes(declarations: dict[str, Any], rows: list[str], table_rows: list[tuple[str, list[Cell]]]) -> list[str]:
    """``row (kind): description`` for each row its provider describes, in table order."""
    kinds = {row: next((c.kind for c in cells if c.value is not None), cells[0].kind) for row, cells in table_rows}
    notes = []
    for row in rows:
        metric = declared(declarations, row)
        if metric is not None and metric.description:
            notes.append(f"{row} ({_KIND_WORDS[kinds[row]]}): {metric.description}")
    return notes


_KIND_WORDS = {"rate": "rate, in %", "count": "count", "mean": "mean"}
