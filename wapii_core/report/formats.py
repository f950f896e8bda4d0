"""Machine-readable renderings of a :class:`~wapii_core.report.tables.Report`: CSV and JSON (the terminal:
:mod:`wapii_core.report.terminal`)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from wapii_core.report.tables import Report

CSV_FIELDS = ("table", "setup", "column", "run", "row", "value", "ci_low", "ci_high", "best")


def render_csv(report: Report) -> str:
    """One line per table, column and row (long format); rates as fractions, intervals as two columns."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for table in report.tables:
        for i, (row, cells) in enumerate(table.rows):
            # a leaderboard's runs are its rows, a paper table's its columns
            runs = [table.runs[i]] * len(cells) if table.kind == "leaderboard" else table.runs
            for column, run, cell in zip(table.columns, runs, cells):
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
        "runs": [{"name": r.name, "label": r.label, "run": r.run.data(), "summary": r.summary.data()} for r in report.runs],
        "tables": [
            {
                "title": t.title,
                "kind": t.kind,
                "setup": t.setup,
                "caption": t.caption,
                "notes": t.notes,
                "descriptions": t.descriptions,
                "columns": t.columns,
                "runs": t.runs,
                "rows": {row: [{"value": c.value, "ci": list(c.interval) if c.interval else None, "best": c.best,
                                **({"kind": c.kind} if c.kind else {})}
                               for c in cells] for row, cells in t.rows},
            }
            for t in report.tables
        ],
        "paired_tests": report.paired,
        "paired_notes": report.paired_notes,
    }


def render_json(report: Report) -> str:
    return json.dumps(report_dict(report), indent=2) + "\n"
