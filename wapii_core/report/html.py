"""A self-contained HTML report: tables, paired tests and inline SVG plots, no network needed.

Everything (style, script, plots) is inside the one file; the page references no URL. With an
output path, the plots are also written as PNG and SVG next to it.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from wapii_core.report.tables import Report, Table, describe_paired, run_description_line, failure_lines, format_cell, format_interval

STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 1200px;
       padding: 0 1rem; color: #212121; overflow-wrap: anywhere; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2rem; }
.scroll { overflow-x: auto; max-width: 100%; -webkit-overflow-scrolling: touch; }
table { border-collapse: separate; border-spacing: 0; margin: 0.5rem 0 0.5rem; }
th, td { padding: 0.2rem 0.6rem; border-bottom: 1px solid #e0e0e0; background: #fff; }
th { background: #f5f5f5; text-align: right; vertical-align: bottom; overflow-wrap: normal; min-width: 4.5em; }
th:first-child, td:first-child { text-align: left; position: sticky; left: 0; z-index: 1;
                                 box-shadow: 1px 0 0 #e0e0e0; min-width: 9em; max-width: 16em; }
th:first-child { background: #f5f5f5; }
td { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td:first-child { white-space: normal; }
td.best { font-weight: 700; background: #e3f2fd; }
td.best::after { content: " \\2605"; font-size: 0.7em; }
table.leaderboard th { cursor: pointer; min-width: 4em; }
table.leaderboard th, table.leaderboard td { padding: 0.2rem 0.4rem; }
table.leaderboard .ci { display: block; margin-left: 0; }
table.leaderboard th[aria-sort]::after { content: " \\2195"; color: #9e9e9e; }
.run { color: #757575; font-weight: 400; font-size: 0.85em; }
.ci { color: #757575; font-size: 0.85em; margin-left: 0.3em; }
body.hide-ci .ci { display: none; }
.caption { color: #424242; margin: 0.2rem 0; }
.warn { background: #fff8e1; border-left: 4px solid #e69f00; padding: 0.3rem 0.6rem; margin: 0.4rem 0; }
.legend { color: #616161; font-size: 0.9em; margin: 0.2rem 0 1rem; padding-left: 1.2rem; }
figure { margin: 0.5rem 0 1.5rem; max-width: 100%; }
figure .scroll svg { display: block; width: 100%; min-width: 520px; height: auto; }
figcaption { color: #616161; font-size: 0.9em; }
.note { color: #616161; }
"""

SCRIPT = """
(function () {
  var toggle = document.getElementById("show-ci");
  if (toggle) {
    toggle.addEventListener("change", function () {
      document.body.classList.toggle("hide-ci", !toggle.checked);
    });
  }
  function key(cell) {
    var value = parseFloat(cell.getAttribute("data-value"));
    return isNaN(value) ? -Infinity : value;
  }
  document.querySelectorAll("table.leaderboard").forEach(function (table) {
    table.querySelectorAll("thead th").forEach(function (th, column) {
      th.setAttribute("aria-sort", "none");
      th.addEventListener("click", function () {
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        var down = th.getAttribute("aria-sort") !== "descending";
        rows.sort(function (a, b) {
          if (column === 0) {
            return (down ? -1 : 1) * a.cells[0].textContent.localeCompare(b.cells[0].textContent);
          }
          return (down ? 1 : -1) * (key(b.cells[column]) - key(a.cells[column]));
        });
        table.querySelectorAll("thead th").forEach(function (other) { other.setAttribute("aria-sort", "none"); });
        th.setAttribute("aria-sort", down ? "descending" : "ascending");
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  });
})();
"""


def _table_html(table: Table) -> str:
    if table.kind == "leaderboard":
        head = "".join(f"<th>{escape(c)}</th>" for c in table.columns)
        first = "Run"
    else:
        head = "".join(f'<th>{escape(c)}<br><span class="run">{escape(r)}</span></th>'
                       for c, r in zip(table.columns, table.runs))
        first = "Metric"
    body = []
    for i, (row, cells) in enumerate(table.rows):
        tds = []
        for cell in cells:
            text = escape(format_cell(cell.metric or row, cell))
            if cell.interval:
                text += f'<span class="ci">{escape(format_interval(cell.interval))}</span>'
            value = "" if cell.value is None else f' data-value="{float(cell.value)!r}"'
            tds.append(f'<td class="best"{value}>{text}</td>' if cell.best else f"<td{value}>{text}</td>")
        name = escape(row)
        if table.kind == "leaderboard":
            name += f'<br><span class="run">{escape(table.runs[i])}</span>'
        body.append(f"<tr><td>{name}</td>{''.join(tds)}</tr>")
    kind = " leaderboard" if table.kind == "leaderboard" else ""
    return (f'<div class="scroll"><table class="metrics{kind}" data-kind="{table.kind}"><thead><tr><th>{first}</th>'
            f"{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>")


def _table_section(table: Table) -> list[str]:
    """A table with its caption, notes and legend."""
    from wapii_core.report.legend import legend

    parts = [f"<h2>{escape(table.title)}</h2>"]
    if table.caption:
        parts.append(f'<p class="caption">All {"rows" if table.kind == "leaderboard" else "columns"}: '
                     f"{escape(table.caption)}</p>")
    parts += [f'<p class="warn">{escape(note)}</p>' for note in table.notes]
    parts.append(_table_html(table))
    parts.append('<ul class="legend">' + "".join(f"<li>{_inline_markdown(line)}</li>"
                                                for line in legend(table, intervals=True)) + "</ul>")
    return parts


def page_title(report: Report) -> str:
    """What the page shows: ``wapii report: demo · axios_js · oracle`` (what every run shares, else
    the number of runs), ``wapii leaderboard: ...`` for a leaderboard."""
    kind = "leaderboard" if any(t.kind == "leaderboard" for t in report.tables) else "report"
    facets = []
    for key in ("dataset", "model", "adapter", "setup", "setting"):
        values = {str(getattr(r.run, key) or (r.run.backend if key == "model" else "")) for r in report.runs}
        if len(values) == 1 and "" not in values:
            facets.append(values.pop())
    runs = f"{len(report.runs)} runs" if len(report.runs) != 1 else report.runs[0].name if report.runs else ""
    return f"wapii {kind}: " + " · ".join(facets + ([runs] if len(report.runs) != 1 or not facets else []))


def render_html(report: Report, plots: list | None = None, differences: list | None = None) -> str:
    """The report page; ``plots`` are :class:`wapii_core.report.plots.Plot` objects to inline;
    ``differences`` the tasks one library solved and another did not (``--libraries``)."""
    title = escape(page_title(report))
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{title}</title>", f"<style>{STYLE}</style></head><body>", f"<h1>{title}</h1>", "<ul>"]
    parts += [f"<li>{_inline_markdown(run_description_line(run))}</li>" for run in report.runs]
    parts.append("</ul>")
    from wapii_core.report.legend import METRICS_DOC

    note = (f"What every row means: {METRICS_DOC} in the wapii repository. Best value of each row: bold, "
            "marked \u2605.")
    if report.resamples:
        note += (f" Grey brackets: 95 % bootstrap interval ({report.resamples} resamples of tasks, "
                 f"seed {report.seed}).")
        parts.append('<p><label><input type="checkbox" id="show-ci" checked> show intervals</label></p>')
    parts.append(f'<p class="note">{escape(note)}</p>')
    for table in report.tables:
        parts += _table_section(table)
    if report.paired or report.paired_notes:
        parts.append("<h2>Paired tests</h2><ul>")
        parts += [f"<li>{escape(describe_paired(t))}</li>" for t in report.paired]
        parts += [f"<li>{escape(note)}</li>" for note in report.paired_notes]
        parts.append("</ul>")
    if differences:
        parts.append("<h2>Tasks one library solved and another did not</h2><ul>")
        for diff in differences:
            tasks = "".join(f"<li><code>{escape(t)}</code>: {escape(diff['why'].get(t, ''))}</li>"
                            for t in diff["tasks"])
            parts.append(f"<li>{escape(str(diff['setup']))}: solved by <strong>{escape(str(diff['solved_by']))}"
                         f"</strong>, not by <strong>{escape(str(diff['not_by']))}</strong> ({len(diff['tasks'])})"
                         + (f"<ul>{tasks}</ul>" if tasks else "") + "</li>")
        parts.append("</ul>")
    for run in report.runs:
        failed = run.summary.failed_generations
        if failed:
            parts.append(f"<h2>Failed generations in {escape(run.name)}</h2><ul>")
            parts += [f"<li>{escape(line)}</li>" for line in failure_lines(failed)]
            parts.append("</ul>")
    if plots:
        parts.append("<h2>Plots</h2>")
        parts += [f'<figure><div class="scroll">{_labelled(p.svg, p.caption)}</div>'
                  f"<figcaption>{escape(p.caption)}</figcaption></figure>" for p in plots]
    parts += [f"<script>{SCRIPT}</script>", "</body></html>"]
    return "\n".join(parts) + "\n"


def _labelled(svg: str, caption: str) -> str:
    """The inline SVG as an image named by its caption (its text is drawn as paths)."""
    return svg.replace("<svg", f'<svg role="img" aria-label="{escape(caption)}"', 1)


def _inline_markdown(text: str) -> str:
    """The ``**bold**`` and ```code``` of :func:`run_description_line` as HTML."""
    import re

    html = escape(text)
    html = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", html)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", html)


def write_html_report(report: Report, out: Path, differences: list | None = None) -> list[Path]:
    """Write ``out`` (the page) and its plots as PNG and SVG next to it; return every file written."""
    from wapii_core.report.plots import make_plots, save_plots
    from wapii_core.store.rundir import write_atomic

    plots = make_plots(report)
    write_atomic(out, render_html(report, plots, differences))
    return [out, *save_plots(plots, out.parent, out.stem)]


def html_text(report: Report, differences: list | None = None) -> str:
    """The page alone (for stdout): plots inlined, no files written."""
    from wapii_core.report.plots import close_plots, make_plots

    plots = make_plots(report)
    try:
        return render_html(report, plots, differences)
    finally:
        close_plots(plots)
