"""Machine-readable and terminal renderings of a :class:`~wapii_core.report.Report`: CSV, JSON, rich."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from .report import Report, describe_paired, format_cell, format_interval

CSV_FIELDS = ("table", "setup", "column", "run", "row", "value", "ci_low", "ci_high", "best")


def render_csv(report: Report) -> str:
    """One line per table, column and row (long format); rates as fractions, intervals as two columns."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for table in report.tables:
        for row, cells in table.rows:
            for column, run, cell in zip(table.columns, table.runs, cells):
                low, high = cell.interval if cell.interval else ("", "")
                writer.writerow([table.title, table.setup or "", column, run, row,
                                 "" if cell.value is None else repr(float(cell.value)),
                                 low if low == "" else repr(low), high if high == "" else repr(high),
                                 int(cell.best)])
    return buffer.getvalue()


def report_dict(report: Report) -> dict[str, Any]:
    """The report as plain data (what ``--format json`` prints)."""
    return {
        "bootstrap": {"resamples": report.resamples, "seed": report.seed, "confidence": 0.95} if report.resamples
        else None,
        "runs": [{"name": r.name, "label": r.label, "run": r.run, "summary": r.summary} for r in report.runs],
        "tables": [
            {
                "title": t.title,
                "setup": t.setup,
                "columns": t.columns,
                "runs": t.runs,
                "rows": {row: [{"value": c.value, "ci": list(c.interval) if c.interval else None, "best": c.best}
                               for c in cells] for row, cells in t.rows},
            }
            for t in report.tables
        ],
        "paired_tests": report.paired,
    }


def render_json(report: Report) -> str:
    return json.dumps(report_dict(report), indent=2) + "\n"


def print_report(report: Report) -> None:
    """Every table on the terminal (best values bold green), then the paired tests."""
    from rich.console import Console
    from rich.table import Table as RichTable

    console = Console()
    for table in report.tables:
        rich = RichTable(title=table.title, show_lines=bool(report.resamples))
        rich.add_column("Metric", justify="left", no_wrap=True)
        for title in table.columns:
            rich.add_column(title, justify="right")
        for row, cells in table.rows:
            texts = []
            for cell in cells:
                text = format_cell(row, cell)
                if cell.best:
                    text = f"[bold green]{text}[/]"
                if cell.interval:
                    text += f"\n[dim]{format_interval(cell.interval)}[/]"
                texts.append(text)
            rich.add_row(row, *texts)
        console.print(rich)
        for note in table.notes:
            console.print(f"  {note}", style="dim", highlight=False)
    if report.resamples:
        console.print(f"Brackets: 95 % bootstrap interval ({report.resamples} resamples of tasks, seed {report.seed}).")
    for test in report.paired:
        console.print(describe_paired(test), highlight=False)
