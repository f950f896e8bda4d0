"""The legend printed under every report table: what each abbreviation and marker means.

Only the entries a table uses are listed: under a table of the paper's rows, what each of its rows
counts (as :mod:`wapii_core.judge.rows` declares it); the full definitions of every row are in the
project's ``docs/metrics.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wapii_core.report.model import Table

METRICS_DOC = "docs/metrics.md"

SUFFIXES = {
    "(t)": "share of all judged samples",
    "(e)": "share of the executable samples (the call ran and sent a request)",
    "(v)": "share of the validated requests (executed requests whose URL and method name an operation of the spec)",
    "(b)": "share of the validated requests that carry a body to an operation declaring one",
}

SPEC_VALIDATION_NOTE = (
    "The expected requests are not all valid themselves: `wapii datasets check` lists those that break "
    "their spec, and an oracle run shows the dataset's own baseline.")


def _baselines(about: str) -> list[str]:
    """The spec-validation baseline each registered dataset named in ``about`` declares
    (its loader's ``spec_validation_baseline``), for a table of its runs."""
    from wapii_core.base import plugins

    return [note for name, entry in plugins.datasets.entries().items()
            if (note := getattr(entry.value, "spec_validation_baseline", None)) and name in about]


def legend(table: "Table", intervals: bool) -> list[str]:
    """One line per abbreviation or marker the table uses."""
    names = [row for row, _ in table.rows] + list(table.columns)
    lines = []
    if table.kind == "leaderboard":
        lines.append("Runs sorted by correct implementations (t); rates in %.")
    elif table.kind == "paper":
        lines.append("Rates in %, counts as numbers of samples; bold: the best value of its row.")
    for suffix, meaning in SUFFIXES.items():
        if any(suffix in name for name in names):
            lines.append(f"{suffix}: {meaning}.")
    if intervals and any(c.interval for _, cells in table.rows for c in cells):
        lines.append("[low, high]: 95 % bootstrap interval over tasks.")
    if table.title.endswith("spec_validation metrics"):
        about = " ".join([table.caption, *table.columns]).lower()
        lines.append(SPEC_VALIDATION_NOTE + "".join(_baselines(about)))
    if table.kind == "paper":
        lines += _row_lines([row for row, _ in table.rows])
    return lines + list(table.descriptions)


def _row_lines(names: list[str]) -> list[str]:
    """``Correct URLs: share of samples whose URL matches the expected path template.``, once per paper row
    among ``names`` (both scopes of a rate share one line)."""
    from wapii_core.judge.rows import paper_row

    rows = [row for row in map(paper_row, names) if row is not None]
    return [f"{row.stem}: {row.description}." for row in dict.fromkeys(rows)]
