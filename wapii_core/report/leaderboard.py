"""The leaderboard view of many runs: runs as rows sorted by correct implementations, key rows as columns.

The paper's layout (rows = its 36 metric rows, columns = runs) stops being readable beyond a handful
of runs; a leaderboard over 30 models keeps one line per run. One table per setup (full and
argument completion are never ranked together). Every value is a share, so runs of different
sizes stay comparable; the incomplete and runtime-error counts become shares of the judged samples.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wapii_core.judge.rows import COUNT_ROWS, lower_is_better

from wapii_core.report.labels import comparability_notes, labels
from wapii_core.report.model import SETUP_TITLES, Cell, Table, setups

if TYPE_CHECKING:
    from wapii_core.report.model import RunData

COLUMNS: tuple[tuple[str, str], ...] = (
    ("Correct (t)", "Correct implementations (t)"),
    ("Executable (t)", "Executable implementations (t)"),
    ("Correct URLs (e)", "Correct URLs (e)"),
    ("Correct methods (e)", "Correct methods (e)"),
    ("Correct arg. names (e)", "Correct argument names (e)"),
    ("Correct arg. values (e)", "Correct argument values (e)"),
    ("Illegal URLs (e)", "Illegal URLs (e)"),
    ("Illegal methods (e)", "Illegal methods (e)"),
    ("Illegal arguments (e)", "Illegal arguments (e)"),
    ("Incomplete (t)", "Incomplete implementations"),
    ("Runtime errors (t)", "Runtime errors"),
)
"""(column title, the paper row it shows); the two count rows are shown as shares of judged samples.
Whether smaller is better is the row's own (:mod:`wapii_core.judge.rows`)."""



def _cells(run: "RunData", resamples: int, seed: int) -> list[Cell]:

    values = run.summary.overall
    judged = run.summary.judged
    intervals: dict[str, Any] = {}
    if run.results and resamples > 0:
        from wapii_core.report.stats import intervals_for

        intervals = intervals_for(run.results, resamples=resamples, seed=seed)
    cells = []
    for title, row in COLUMNS:
        value = values.get(row)
        if row in COUNT_ROWS:
            value = value / judged if value is not None and judged else None
            cells.append(Cell(value, metric=title))
        else:
            cells.append(Cell(value, intervals.get(row) if row == COLUMNS[0][1] else None, metric=title))
    cells.append(Cell(judged, metric="Samples"))
    return cells


def _sort_key(cells: list[Cell]) -> tuple[float, float]:
    correct, executable = cells[0].value, cells[1].value
    return (-(correct if correct is not None else -1.0), -(executable if executable is not None else -1.0))


def _mark_best(rows: list[tuple[str, list[Cell]]]) -> None:
    for j, (_, row) in enumerate(COLUMNS):
        values = {cells[j].value for _, cells in rows if cells[j].value is not None}
        if len(values) < 2:
            continue
        best = min(values) if lower_is_better(row) else max(values)
        for _, cells in rows:
            cells[j].best = cells[j].value == best


def leaderboard_tables(runs: list["RunData"], resamples: int, seed: int) -> list[Table]:
    """One leaderboard per setup: a row per run (named by what sets it apart), sorted by correct
    implementations (t), then executable implementations (t)."""
    tables = []
    for setup in setups(runs):
        group = [r for r in runs if r.run.setup == setup]
        names, caption = labels(group)
        rows = sorted(((name, _cells(run, resamples, seed), run) for name, run in zip(names, group)),
                      key=lambda item: _sort_key(item[1]))
        table_rows = [(name, cells) for name, cells, _ in rows]
        _mark_best(table_rows)
        title = f"Leaderboard — {SETUP_TITLES.get(str(setup), f'Setup {setup}')}"
        tables.append(Table(title, setup, [title for title, _ in COLUMNS] + ["Samples"], table_rows,
                            [run.name for _, _, run in rows], [None] * len(rows), kind="leaderboard",
                            caption=caption, notes=comparability_notes(group, names)))
    return tables
