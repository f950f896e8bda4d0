"""A self-contained HTML report: tables, paired tests and inline SVG plots, no network needed.

Everything (style, script, plots) is inside the one file; the page references no URL. With an
output path, the plots are also written as PNG and SVG next to it.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from .report import Report, Table, describe_paired, describe_run, format_cell, format_interval

STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 1200px;
       padding: 0 1rem; color: #212121; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
th, td { padding: 0.2rem 0.6rem; border-bottom: 1px solid #e0e0e0; }
th { background: #f5f5f5; text-align: right; vertical-align: bottom; }
th:first-child, td:first-child { text-align: left; }
td { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.best { font-weight: 700; background: #e8f5e9; }
.run { color: #757575; font-weight: 400; font-size: 0.85em; }
.ci { color: #757575; font-size: 0.85em; margin-left: 0.3em; }
body.hide-ci .ci { display: none; }
figure { display: inline-block; margin: 0.5rem 1rem 1rem 0; vertical-align: top; }
figure svg { max-width: 100%; height: auto; }
figcaption { color: #616161; font-size: 0.9em; }
.note { color: #616161; }
"""

SCRIPT = """
(function () {
  var toggle = document.getElementById("show-ci");
  if (!toggle) { return; }
  toggle.addEventListener("change", function () {
    document.body.classList.toggle("hide-ci", !toggle.checked);
  });
  var first = document.querySelector("table.metrics tbody");
  document.getElementById("row-count").textContent = String(first ? first.rows.length : 0);
})();
"""


def _table_html(table: Table) -> str:
    head = "".join(f'<th>{escape(c)}<br><span class="run">{escape(r)}</span></th>'
                   for c, r in zip(table.columns, table.runs))
    body = []
    for row, cells in table.rows:
        tds = []
        for cell in cells:
            text = escape(format_cell(row, cell))
            if cell.interval:
                text += f'<span class="ci">{escape(format_interval(cell.interval))}</span>'
            tds.append(f'<td class="best">{text}</td>' if cell.best else f"<td>{text}</td>")
        body.append(f"<tr><td>{escape(row)}</td>{''.join(tds)}</tr>")
    notes = "".join(f"<li>{escape(note)}</li>" for note in table.notes)
    return (f'<table class="metrics" data-kind="{table.kind}"><thead><tr><th>Metric</th>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table>" + (f'<ul class="notes">{notes}</ul>' if notes else ""))


def render_html(report: Report, plots: list | None = None) -> str:
    """The report page; ``plots`` are :class:`wapii_core.plots.Plot` objects to inline."""
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             "<title>wapii report</title>", f"<style>{STYLE}</style></head><body>", "<h1>wapii report</h1>", "<ul>"]
    parts += [f"<li>{_inline_markdown(describe_run(run))}</li>" for run in report.runs]
    parts.append("</ul>")
    note = "Rates in %; (t) over all samples, (e) over executable samples; the best value of each row is bold."
    if report.resamples:
        note += (f" Grey brackets: 95 % bootstrap interval ({report.resamples} resamples of tasks, "
                 f"seed {report.seed}).")
        parts.append('<p><label><input type="checkbox" id="show-ci" checked> show intervals</label></p>')
    parts.append(f'<p class="note">{escape(note)} <span id="row-count"></span> rows per table.</p>')
    for table in report.tables:
        parts += [f"<h2>{escape(table.title)}</h2>", _table_html(table)]
    if report.paired:
        parts.append("<h2>Paired tests</h2><ul>")
        parts += [f"<li>{escape(describe_paired(t))}</li>" for t in report.paired]
        parts.append("</ul>")
    if plots:
        parts.append("<h2>Plots</h2>")
        parts += [f"<figure>{p.svg}<figcaption>{escape(p.caption)}</figcaption></figure>" for p in plots]
    parts += [f"<script>{SCRIPT}</script>", "</body></html>"]
    return "\n".join(parts) + "\n"


def _inline_markdown(text: str) -> str:
    """The ``**bold**`` and ```code``` of :func:`describe_run` as HTML."""
    import re

    html = escape(text)
    html = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", html)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", html)


def write_html_report(report: Report, out: Path) -> list[Path]:
    """Write ``out`` (the page) and its plots as PNG and SVG next to it; return every file written."""
    from .plots import make_plots, save_plots
    from .store import write_atomic

    plots = make_plots(report)
    write_atomic(out, render_html(report, plots))
    return [out, *save_plots(plots, out.parent, out.stem)]


def html_text(report: Report) -> str:
    """The page alone (for stdout): plots inlined, no files written."""
    from .plots import close_plots, make_plots

    plots = make_plots(report)
    try:
        return render_html(report, plots)
    finally:
        close_plots(plots)
