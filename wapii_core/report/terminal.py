"""The report on the terminal: rich tables that fit the width without ever cutting a number.

Each value column is at least as wide as its widest value (and interval, when shown); labels wrap
inside that width. When the columns do not fit side by side, the table is split into several
tables of consecutive columns, each repeating the row names, so that 80 columns show a per-API
breakdown and 120 columns a leaderboard intact. Under every table: its caption (what every column
shares), notes on what keeps the columns from being compared, and a legend of its abbreviations.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from wapii_core.base.text import visible
from wapii_core.report.legend import METRICS_DOC, legend
from wapii_core.report.model import Report, Table, describe_paired, format_cell, format_interval
from wapii_core.report.labels import wrap_label

if TYPE_CHECKING:
    from rich.console import Console

FIRST_MIN, FIRST_MAX = 18, 34
"""Width range of the row-name column (longer names wrap)."""
LABEL_MIN = 9
"""Value columns are at least this wide, so that labels wrap into words rather than letters."""
WORD_MAX = 16
"""A label's word up to this long keeps a column wide enough to show it unbroken."""
OVERHEAD = 3
"""Characters a column adds besides its content: one space of padding each side and a border."""


def _cell_texts(table: Table, intervals: bool) -> list[list[tuple[str, str]]]:
    """Per row, per column: (value text, interval text)."""
    return [[(format_cell(c.metric or row, c), format_interval(c.interval) if intervals else "")
             for c in cells] for row, cells in table.rows]


def _widths(table: Table, texts: list[list[tuple[str, str]]]) -> list[int]:
    """Per column: its widest value (or interval), widened for a label up to :data:`LABEL_MIN`
    (or its longest word, at most :data:`WORD_MAX`: ``unconstrained`` and ``requests_py`` stay whole)."""
    widths = []
    for j, title in enumerate(table.columns):
        longest_word = max((len(w) for w in title.replace("·", " ").split()), default=0)
        values = max((max(len(v), len(i)) for row in texts for v, i in [row[j]]), default=1)
        widths.append(max(values, min(len(title), max(LABEL_MIN, min(longest_word, WORD_MAX)))))
    return widths


def _chunks(widths: list[int], room: int) -> list[list[int]]:
    """Consecutive column indices whose widths (plus overhead) fit in ``room``; at least one each."""
    chunks: list[list[int]] = [[]]
    used = 0
    for j, width in enumerate(widths):
        if chunks[-1] and used + width + OVERHEAD > room:
            chunks.append([])
            used = 0
        chunks[-1].append(j)
        used += width + OVERHEAD
    return chunks


def _rich_table(table: Table, columns: list[int], texts: list[list[tuple[str, str]]], widths: list[int],
                first: int, part: str) -> Any:
    from rich.table import Table as RichTable
    from rich.text import Text

    first_title = "Run" if table.kind == "leaderboard" else "Metric"
    rich = RichTable(title=Text(visible(table.title + part)), title_justify="left", show_lines=any(i for row in texts
                                                                                    for _, i in row))
    rich.add_column(first_title, justify="left", min_width=first, max_width=first, overflow="fold")
    for j in columns:
        rich.add_column(Text(wrap_label(visible(table.columns[j]), widths[j])), justify="right", min_width=widths[j],
                        max_width=widths[j], overflow="fold")
    for (row, cells), row_texts in zip(table.rows, texts):
        rendered = []
        for j in columns:
            value, interval = row_texts[j]
            text = Text(visible(value), style="bold" if cells[j].best else "")
            if interval:
                text.append("\n" + visible(interval), style="dim")
            rendered.append(text)
        rich.add_row(Text(visible(row)), *rendered)  # a run's label: a run file chose it
    return rich


def print_table_on(console: "Console", table: Table, intervals: bool) -> None:
    """One table (split into parts when too wide), then its caption, notes and legend."""
    texts = _cell_texts(table, intervals)
    widths = _widths(table, texts)
    longest = max((len(row) for row, _ in table.rows), default=FIRST_MIN)
    chunks = _chunks(widths, console.width - FIRST_MIN - OVERHEAD - 1)
    for n, columns in enumerate(chunks):
        part = f" (part {n + 1} of {len(chunks)})" if len(chunks) > 1 else ""
        used = sum(widths[j] + OVERHEAD for j in columns)
        first = max(FIRST_MIN, min(FIRST_MAX, longest, console.width - used - OVERHEAD - 1))
        console.print(_rich_table(table, columns, texts, widths, first, part))
    if table.caption:
        shared = "All runs" if table.kind == "leaderboard" else "All columns"
        console.print(f"{shared}: {visible(table.caption)}.", highlight=False, markup=False)
    for note in table.notes:
        console.print(f"Note: {visible(note)}", style="bold", highlight=False, markup=False)
    for line in legend(table, intervals):
        console.print(visible(line), style="dim", highlight=False, markup=False)
    console.print()


def print_report_on(console: "Console", report: Report, intervals: bool = False) -> None:
    """Every table of ``report`` on ``console``, then the paired tests, the pairs without one and a
    pointer to the metrics document; intervals only with ``intervals``."""
    for table in report.tables:
        print_table_on(console, table, intervals)
    if report.resamples and intervals:
        console.print(f"Intervals: {report.resamples} bootstrap resamples of tasks, seed {report.seed}.",
                      highlight=False)
    elif report.resamples and any(c.interval for t in report.tables for _, cells in t.rows for c in cells):
        console.print("95 % intervals: add --intervals, or see --format md / html.", style="dim", highlight=False)
    for test in report.paired:
        console.print(visible(describe_paired(test)), highlight=False, markup=False)
    for note in report.paired_notes:
        console.print(visible(note), highlight=False, markup=False)
    console.print(f"What every row means: {METRICS_DOC} in the wapii repository.", style="dim", highlight=False)


def print_report(report: Report, intervals: bool = False) -> None:
    """Every table on the terminal (its current width), then the paired tests."""
    from rich.console import Console

    print_report_on(Console(), report, intervals)


def render_terminal(report: Report, intervals: bool = False, width: int = 120) -> str:
    """The terminal rendering as plain text of ``width`` columns (``--format table --out FILE``)."""
    from rich.console import Console

    buffer = io.StringIO()
    print_report_on(Console(file=buffer, width=width, color_system=None, force_terminal=False), report, intervals)
    return buffer.getvalue()
