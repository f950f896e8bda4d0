"""The report's plots, one set per table: sample verdicts, error kinds, argument precision / recall.

The data of each plot comes from a :class:`~wapii_core.report.Table` (and, for error kinds, from the
runs' results); drawing uses matplotlib with the Agg backend, imported only when a plot is made.
Figures are returned as SVG text (inlined into the HTML report) and can be saved as PNG and SVG.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .model import ERROR_KINDS
from .report import Report, RunData, Table

VERDICTS = ("correct", "wrong", "illegal", "nonexecutable")
VERDICT_COLOURS = {"correct": "#2e7d32", "wrong": "#f9a825", "illegal": "#c62828", "nonexecutable": "#757575"}


@dataclass
class Plot:
    """One drawn figure: its file stem, caption, SVG text and the matplotlib figure (for saving)."""

    name: str
    caption: str
    svg: str
    figure: Any


def _value(table: Table, row: str, column: int) -> float | None:
    for name, cells in table.rows:
        if name == row:
            return cells[column].value
    raise KeyError(row)


def verdict_shares(table: Table) -> list[dict[str, float]]:
    """Per column: the share of samples that are correct, wrong, illegal and non-executable."""
    shares = []
    for j in range(len(table.columns)):
        executable = _value(table, "Executable implementations (t)", j) or 0.0
        correct = _value(table, "Correct implementations (t)", j) or 0.0
        illegal = _value(table, "Illegal implementations (t)", j) or 0.0
        shares.append({"correct": correct, "wrong": max(0.0, executable - correct - illegal), "illegal": illegal,
                       "nonexecutable": 1.0 - executable})
    return shares


def error_counts(table: Table, runs: list[RunData]) -> list[dict[str, int]]:
    """Per column: how many samples failed with each error kind (from results.jsonl when loaded,
    else the summary's incomplete / runtime counts)."""
    by_name = {r.name: r for r in runs}
    out = []
    for j, (run_name, scope) in enumerate(zip(table.runs, table.scopes)):
        _, results = by_name[run_name].scoped(scope)
        if results is not None:
            counts = Counter(r.error for r in results if r.error)
            out.append({kind: counts.get(kind, 0) for kind in ERROR_KINDS})
        else:
            out.append({"incomplete (all kinds)": int(_value(table, "Incomplete implementations", j) or 0),
                        "runtime_error": int(_value(table, "Runtime errors", j) or 0)})
    return out


def precision_recall(table: Table) -> list[dict[str, tuple[float | None, tuple[float, float] | None]]]:
    """Per column: mean argument precision and recall (t) with their intervals."""
    rows = dict(table.rows)
    out = []
    for j in range(len(table.columns)):
        out.append({label: (rows[row][j].value, rows[row][j].interval)
                    for label, row in (("precision", "Mean argument precision (t)"),
                                       ("recall", "Mean argument recall (t)"))})
    return out


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.fonttype": "path", "figure.dpi": 100, "font.size": 9})
    return plt


def _short(label: str, width: int = 22) -> str:
    """Wrap a column title onto lines of at most ``width`` characters for the axis."""
    words, lines, line = re.split(r"(?<=[ ·/:])", label), [], ""
    for word in words:
        if line and len(line) + len(word) > width:
            lines.append(line.strip())
            line = ""
        line += word
    return "\n".join(lines + [line.strip()])


def _figure(plt: Any, columns: int) -> tuple[Any, Any]:
    figure, axes = plt.subplots(figsize=(max(5.5, 1.3 * columns + 3.0), 3.6), layout="constrained")
    axes.set_xlim(-0.8, columns - 0.2)  # keep a lone bar from filling the plot
    return figure, axes


def _svg(figure: Any, salt: str) -> str:
    """The figure as an inline ``<svg>`` element; ``salt`` keeps its element ids unique in the page."""
    plt = _pyplot()
    buffer = io.StringIO()
    with plt.rc_context({"svg.hashsalt": salt}):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def plot_verdicts(table: Table) -> Any:
    plt = _pyplot()
    figure, axes = _figure(plt, len(table.columns))
    shares = verdict_shares(table)
    positions = range(len(shares))
    bottom = [0.0] * len(shares)
    for verdict in VERDICTS:
        heights = [100 * s[verdict] for s in shares]
        axes.bar(positions, heights, bottom=bottom, label=verdict, color=VERDICT_COLOURS[verdict], width=0.6)
        bottom = [b + h for b, h in zip(bottom, heights)]
    axes.set_ylabel("% of samples")
    axes.set_ylim(0, 100)
    axes.set_xticks(list(positions), [_short(c) for c in table.columns])
    axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    axes.set_title("Sample verdicts")
    return figure


def plot_errors(table: Table, runs: list[RunData]) -> Any:
    plt = _pyplot()
    figure, axes = _figure(plt, len(table.columns))
    counts = error_counts(table, runs)
    kinds = list(dict.fromkeys(k for c in counts for k in c))
    width = 0.8 / max(1, len(kinds))
    for i, kind in enumerate(kinds):
        axes.bar([j + (i - (len(kinds) - 1) / 2) * width for j in range(len(counts))],
                 [c.get(kind, 0) for c in counts], width=width, label=kind)
    axes.set_ylabel("samples")
    axes.set_xticks(list(range(len(counts))), [_short(c) for c in table.columns])
    axes.yaxis.get_major_locator().set_params(integer=True)
    axes.set_ylim(0, max([1, *(n for c in counts for n in c.values())]) * 1.15)
    axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    axes.set_title("Error kinds")
    return figure


def plot_precision_recall(table: Table) -> Any:
    plt = _pyplot()
    figure, axes = _figure(plt, len(table.columns))
    data = precision_recall(table)
    for i, (label, colour) in enumerate((("precision", "#1565c0"), ("recall", "#6a1b9a"))):
        xs = [j + (i - 0.5) * 0.35 for j in range(len(data))]
        values = [100 * (d[label][0] or 0.0) for d in data]
        errors = [[100 * ((d[label][0] or 0.0) - d[label][1][0]) if d[label][1] else 0.0 for d in data],
                  [100 * (d[label][1][1] - (d[label][0] or 0.0)) if d[label][1] else 0.0 for d in data]]
        axes.bar(xs, values, width=0.35, label=f"mean {label}", color=colour,
                 yerr=[[max(0.0, e) for e in side] for side in errors], capsize=3)
    axes.set_ylabel("%")
    axes.set_ylim(0, 105)
    axes.set_xticks(list(range(len(data))), [_short(c) for c in table.columns])
    axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    axes.set_title("Argument precision / recall (t)")
    return figure


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "table"


def make_plots(report: Report) -> list[Plot]:
    """The three plots of every table of the paper's rows in ``report``."""
    plots = []
    for table in (t for t in report.tables if t.kind == "paper"):
        base = slug(table.title)
        for kind, caption, figure in (
            ("verdicts", "Sample verdicts (share of samples)", plot_verdicts(table)),
            ("errors", "Error kinds of non-executable samples", plot_errors(table, report.runs)),
            ("precision-recall", "Mean argument precision and recall (t), 95 % intervals",
             plot_precision_recall(table)),
        ):
            plots.append(Plot(f"{base}-{kind}", f"{caption} — {table.title}", _svg(figure, f"{base}-{kind}"), figure))
    return plots


def save_plots(plots: list[Plot], directory: Path, prefix: str) -> list[Path]:
    """Write every plot as ``<prefix>-<name>.png`` and ``.svg`` into ``directory``; close the figures."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for plot in plots:
        for suffix in ("png", "svg"):
            path = directory / f"{prefix}-{plot.name}.{suffix}"
            plot.figure.savefig(path, format=suffix, metadata={"Date": None} if suffix == "svg" else None)
            written.append(path)
    close_plots(plots)
    return written


def close_plots(plots: list[Plot]) -> None:
    plt = _pyplot()
    for plot in plots:
        plt.close(plot.figure)
