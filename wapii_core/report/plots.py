"""The report's plots, one set per table: sample verdicts, error kinds, argument precision / recall;
for a leaderboard, correct implementations per run.

The data of each plot comes from a :class:`~wapii_core.report.tables.Table` (and, for error kinds, from the
runs' results); drawing uses matplotlib with the Agg backend, imported only when a plot is made.
Every plot shows shares (runs of different sizes stay comparable), names things as the tables do,
says "none" when there is nothing to draw, is titled with its table and what the runs share, and
uses the Okabe-Ito colour-blind-safe palette with the meaning also carried by hatching or labels.
Figures are returned as SVG text (inlined into the HTML report) and can be saved as PNG and SVG.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wapii_core.base.model import ERROR_KINDS
from wapii_core.report.tables import Report, RunData, Table

VERDICTS = ("correct", "wrong", "illegal", "nonexecutable")
# Okabe & Ito's palette (distinguishable with every common colour-vision deficiency), plus hatching
VERDICT_STYLES = {"correct": ("#0072B2", ""), "wrong": ("#E69F00", "//"), "illegal": ("#CC79A7", "xx"),
                  "nonexecutable": ("#999999", "..")}
VERDICT_NAMES = {"correct": "correct", "wrong": "wrong", "illegal": "illegal", "nonexecutable": "not executable"}
ERROR_NAMES = {"incomplete_request": "Incomplete: call cut off", "no_request": "Incomplete: no request sent",
               "timeout": "Incomplete: generation timed out", "unsatisfiable": "Incomplete: grammar stuck",
               "runtime_error": "Runtime errors"}
"""Error kinds as the table names them (the first four make up its "Incomplete implementations" row)."""
ERROR_STYLES = [("#D55E00", "//"), ("#56B4E9", "\\\\"), ("#009E73", "xx"), ("#F0E442", ".."), ("#000000", "")]


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


def error_counts(table: Table, runs: list[RunData]) -> list[tuple[int, dict[str, int]]]:
    """Per column: (judged samples, how many failed with each error kind, named as the table names
    them), from results.jsonl when loaded, else from the summary's counts."""
    by_name = {r.name: r for r in runs}
    out = []
    for run_name, scope in zip(table.runs, table.scopes):
        values, results = by_name[run_name].scoped(scope)
        if results is not None:
            counts: dict[str, Any] = Counter(r.error for r in results if r.error)
            total = len(results)
        else:
            counts = values.get("counts") or {}
            total = int(counts.get("total", 0))
        out.append((total, {ERROR_NAMES[kind]: int(counts.get(kind, 0)) for kind in ERROR_KINDS}))
    return out


def error_shares(table: Table, runs: list[RunData]) -> list[dict[str, float]]:
    """Per column: the share of its judged samples that failed with each error kind."""
    return [{kind: (n / total if total else 0.0) for kind, n in counts.items()}
            for total, counts in error_counts(table, runs)]


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

    plt.rcParams.update({"svg.fonttype": "path", "figure.dpi": 100, "font.size": 10, "hatch.linewidth": 0.6})
    return plt


def _short(label: str, width: int = 16) -> str:
    """Wrap a column title onto lines of at most ``width`` characters for the axis."""
    from wapii_core.report.labels import wrap_label

    return wrap_label(label, width)


def _figure(plt: Any, columns: int) -> tuple[Any, Any]:
    figure, axes = plt.subplots(figsize=(max(6.0, 1.5 * columns + 3.2), 4.2), layout="constrained")
    axes.set_xlim(-0.8, columns - 0.2)  # keep a lone bar from filling the plot
    return figure, axes


def _x_labels(axes: Any, table: Table) -> None:
    """The columns' labels under the bars, wrapped; turned when there are many, so they never overlap."""
    many = len(table.columns) > 4
    axes.set_xticks(list(range(len(table.columns))), [_short(c, 14 if many else 18) for c in table.columns],
                    rotation=30 if many else 0, ha="right" if many else "center", rotation_mode="anchor")


def _title(axes: Any, what: str, table: Table) -> None:
    """``what — table title``, with what every column shares on a second line."""
    caption = f"\n{_short(table.caption, 90)}" if table.caption else ""
    axes.set_title(f"{what} — {table.title}{caption}", fontsize=10, loc="left")


def _none(axes: Any, text: str = "none") -> None:
    """Say so in the middle of an empty plot."""
    axes.text(0.5, 0.5, text, transform=axes.transAxes, ha="center", va="center", fontsize=14, color="#444444")


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
        colour, hatch = VERDICT_STYLES[verdict]
        bars = axes.bar(positions, heights, bottom=bottom, label=VERDICT_NAMES[verdict], color=colour, hatch=hatch,
                        edgecolor="white", linewidth=0.5, width=0.6)
        axes.bar_label(bars, labels=[f"{h:.0f}" if h >= 8 else "" for h in heights], label_type="center",
                       fontsize=9, color="black", bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none",
                                                        "alpha": 0.8})
        bottom = [b + h for b, h in zip(bottom, heights)]
    axes.set_ylabel("% of judged samples")
    axes.set_ylim(0, 100)
    _x_labels(axes, table)
    axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    _title(axes, "Sample verdicts", table)
    return figure


def plot_errors(table: Table, runs: list[RunData]) -> Any:
    plt = _pyplot()
    figure, axes = _figure(plt, len(table.columns))
    shares = error_shares(table, runs)
    kinds = [k for k in dict.fromkeys(k for c in shares for k in c) if any(c.get(k) for c in shares)]
    width = 0.8 / max(1, len(kinds))
    for i, kind in enumerate(kinds):
        colour, hatch = ERROR_STYLES[i % len(ERROR_STYLES)]
        axes.bar([j + (i - (len(kinds) - 1) / 2) * width for j in range(len(shares))],
                 [100 * c.get(kind, 0.0) for c in shares], width=width, label=kind, color=colour, hatch=hatch,
                 edgecolor="white", linewidth=0.5)
    axes.set_ylabel("% of judged samples")
    _x_labels(axes, table)
    highest = max([0.0, *(100 * v for c in shares for v in c.values())])
    axes.set_ylim(0, max(5.0, highest * 1.15))
    for j, column in enumerate(shares):
        if kinds and not any(column.values()):
            axes.text(j, 0.02, "none", transform=axes.get_xaxis_transform(), ha="center", va="bottom", fontsize=9)
    if kinds:
        axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    else:
        _none(axes, "none: every judged sample ran")
    _title(axes, "Error kinds", table)
    return figure


def plot_precision_recall(table: Table) -> Any:
    plt = _pyplot()
    figure, axes = _figure(plt, len(table.columns))
    data = precision_recall(table)
    for i, (label, colour, hatch) in enumerate((("precision", "#0072B2", ""), ("recall", "#E69F00", "//"))):
        xs = [j + (i - 0.5) * 0.35 for j in range(len(data))]
        values = [100 * (d[label][0] or 0.0) for d in data]
        errors = [[100 * ((d[label][0] or 0.0) - d[label][1][0]) if d[label][1] else 0.0 for d in data],
                  [100 * (d[label][1][1] - (d[label][0] or 0.0)) if d[label][1] else 0.0 for d in data]]
        axes.bar(xs, values, width=0.35, label=f"mean {label}", color=colour, hatch=hatch, edgecolor="white",
                 linewidth=0.5, yerr=[[max(0.0, e) for e in side] for side in errors], capsize=3)
    axes.set_ylabel("%")
    axes.set_ylim(0, 105)
    _x_labels(axes, table)
    axes.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    if all(d["precision"][0] is None and d["recall"][0] is None for d in data):
        _none(axes, "none: no executable sample")
    _title(axes, "Argument precision / recall (t)", table)
    return figure


def plot_leaderboard(table: Table) -> Any:
    """Correct implementations (t) per run, best first, with its 95 % interval."""
    plt = _pyplot()
    rows = table.rows
    figure, axes = plt.subplots(figsize=(7.5, max(2.5, 0.32 * len(rows) + 1.6)), layout="constrained")
    values = [100 * (cells[0].value or 0.0) for _, cells in rows]
    errors = [[100 * ((c.value or 0.0) - c.interval[0]) if c.interval else 0.0 for c in (r[1][0] for r in rows)],
              [100 * (c.interval[1] - (c.value or 0.0)) if c.interval else 0.0 for c in (r[1][0] for r in rows)]]
    positions = list(range(len(rows)))
    bars = axes.barh(positions, values, color="#0072B2", xerr=[[max(0.0, e) for e in side] for side in errors],
                     capsize=2)
    axes.bar_label(bars, labels=[f"{v:.1f}" for v in values], padding=3, fontsize=8)
    axes.set_yticks(positions, [_short(name, 40) for name, _ in rows], fontsize=8)
    axes.invert_yaxis()
    axes.set_xlim(0, 110)
    axes.set_xlabel("Correct implementations (t), % of judged samples")
    if not rows:
        _none(axes)
    _title(axes, "Correct implementations", table)
    return figure


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "table"


def make_plots(report: Report) -> list[Plot]:
    """The three plots of every table of the paper's rows in ``report`` (one per leaderboard).

    File stems name the table and, for a report of one run, the run: ``<run>-full-completion-verdicts``."""
    plots = []
    prefix = f"{slug(report.runs[0].name)}-" if len(report.runs) == 1 else ""
    for table in report.tables:
        base = slug(table.title) if prefix and slug(table.title).startswith(prefix) else prefix + slug(table.title)
        if table.kind == "leaderboard":
            kinds = [("correct", "Correct implementations (t) per run, 95 % intervals", plot_leaderboard(table))]
        elif table.kind == "paper":
            kinds = [("verdicts", "Sample verdicts (share of judged samples)", plot_verdicts(table)),
                     ("errors", "Error kinds (share of judged samples)", plot_errors(table, report.runs)),
                     ("precision-recall", "Mean argument precision and recall (t), 95 % intervals",
                      plot_precision_recall(table))]
        else:
            continue
        for kind, caption, figure in kinds:
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
