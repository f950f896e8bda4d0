"""The headline: what the terminal shows at the end of every ``wapii run`` and ``wapii report``.

The paper's main rows only (:data:`HEADLINE_ROWS`), one column per run, one table per setup, and a
line saying where the rest is (``--full``, ``report.md``): it fits an 80×24 terminal, so the
result is on screen when the command ends. Runs made without the paper's rows
(``--no-default-metrics``) have no headline: their providers' tables are shown whole.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from wapii_core.base.text import visible
from wapii_core.report.tables import Report, Table

if TYPE_CHECKING:
    from rich.console import Console

HEADLINE_ROWS = ("Correct implementations (t)", "Executable implementations (t)", "Illegal implementations (t)",
                 "Correct URLs (t)", "Correct methods (t)", "Correct argument values (t)", "Illegal arguments (t)",
                 "Total errors")
"""The paper's main rows: the share correct, executable and illegal, then what went right or wrong
(URL, method, argument values), and how many samples could not run."""


def headline_tables(report: Report) -> list[Table]:
    """The paper tables of ``report`` cut to :data:`HEADLINE_ROWS` (empty when it has none)."""
    out = []
    for table in report.tables:
        if table.kind != "paper":
            continue
        rows = [(row, cells) for row, cells in table.rows if row in HEADLINE_ROWS]
        out.append(replace(table, rows=sorted(rows, key=lambda r: HEADLINE_ROWS.index(r[0])), kind="headline"))
    return out


def print_headline_on(console: "Console", report: Report, where: str) -> None:
    """The headline tables of ``report`` (the whole report when it has none), then one line saying
    ``where`` the full tables and legends are."""
    from wapii_core.report.terminal import FIRST_MIN, OVERHEAD, _cell_texts, _chunks, _rich_table, _widths
    from wapii_core.report.terminal import print_report_on

    tables = headline_tables(report)
    if not tables:
        print_report_on(console, report)
        return
    for table in tables:
        texts = _cell_texts(table, False)
        widths = _widths(table, texts)
        longest = max(len(row) for row, _ in table.rows)
        for n, columns in enumerate(chunks := _chunks(widths, console.width - FIRST_MIN - OVERHEAD - 1)):
            part = f" (part {n + 1} of {len(chunks)})" if len(chunks) > 1 else ""
            used = sum(widths[j] + OVERHEAD for j in columns)
            first = max(FIRST_MIN, min(longest, console.width - used - OVERHEAD - 1))
            console.print(_rich_table(table, columns, texts, widths, first, part))
        if table.caption:
            console.print(f"All columns: {visible(table.caption)}.", highlight=False, markup=False)
        for note in table.notes:
            console.print(f"Note: {visible(note)}", style="bold", highlight=False, markup=False)
    console.print(f"Rates in % ((t): of all judged samples). Every row, intervals and legends: {where}.",
                  style="dim", highlight=False, markup=False)


def print_headline(report: Report, where: str) -> None:
    """:func:`print_headline_on` the terminal."""
    from rich.console import Console

    print_headline_on(Console(), report, where)


def print_run_headline(columns: list, where: str) -> None:
    """The headline of freshly finished runs (``(title, run.json, summary.json)`` each, as
    :func:`wapii_core.report.tables.print_table` takes them)."""
    from pathlib import Path

    from wapii_core.report.tables import RunData, build_report

    names = [Path(name).name or name for name, _, _ in columns]
    names = [short if names.count(short) == 1 else name for short, (name, _, _) in zip(names, columns)]
    runs = [RunData(short, run, summary) for short, (_, run, summary) in zip(names, columns)]
    print_headline(build_report(runs, resamples=0), where)
