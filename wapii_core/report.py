"""Tables of the paper's rows: runs as columns, as a rich terminal table or Markdown."""

from __future__ import annotations

from typing import Any, Iterable

RunColumn = tuple[str, dict[str, Any], dict[str, Any]]
"""(column title, run.json contents, summary.json contents)."""

COUNT_ROWS = ("Total errors", "Incomplete implementations", "Runtime errors")


def row_names() -> list[str]:
    from .metrics import ROW_NAMES

    return list(ROW_NAMES)


def format_value(row: str, value: Any) -> str:
    """Rates as percentages with one decimal, counts as integers, a missing ratio as ``n/a``."""
    if value is None:
        return "n/a"
    if row in COUNT_ROWS:
        return str(int(value))
    return f"{100 * float(value):.1f}"


def column_title(name: str, run: dict[str, Any]) -> str:
    parts = [run.get("model") or run.get("backend") or "", run.get("adapter") or "", run.get("setup") or ""]
    label = " / ".join(p for p in parts if p)
    return f"{name}\n{label}" if label else name


def table_rows(columns: Iterable[RunColumn], scope: str | None = None) -> tuple[list[str], list[list[str]]]:
    """Header and body of the table: one row per paper row, one column per run (``scope``: an API)."""
    columns = list(columns)
    header = ["Metric"] + [column_title(name, run) for name, run, _ in columns]
    body = []
    for row in row_names():
        cells = [row]
        for _, _, summary in columns:
            values = summary.get("overall", {}) if scope is None else summary.get("per_api", {}).get(scope, {})
            cells.append(format_value(row, values.get(row)))
        body.append(cells)
    return header, body


def markdown_table(header: list[str], body: list[list[str]]) -> str:
    head = [h.replace("\n", "<br>") for h in header]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    lines += ["| " + " | ".join(cells) + " |" for cells in body]
    return "\n".join(lines)


def markdown_report(columns: list[RunColumn]) -> str:
    """report.md: the overall table, then one table per API, then notes on incomplete runs."""
    out = ["# wapii report", ""]
    for name, run, summary in columns:
        out.append(f"- **{name}**: dataset `{run.get('dataset')}`, adapter `{run.get('adapter')}`, backend "
                   f"`{run.get('backend')}`" + (f", model `{run['model']}`" if run.get("model") else "")
                   + f", setup `{run.get('setup')}`, setting `{run.get('setting')}`, comparison mode "
                   f"`{summary.get('mode', run.get('mode'))}`; {summary.get('judged', 0)} of "
                   f"{summary.get('samples', 0)} samples judged" + ("" if summary.get("complete", True)
                                                                   else " (**incomplete**)"))
    out += ["", "Rates in %; (t) over all samples, (e) over executable samples.", "", "## Overall", ""]
    out.append(markdown_table(*table_rows(columns)))
    apis = sorted({api for _, _, summary in columns for api in summary.get("per_api", {})})
    for api in apis:
        out += ["", f"## {api}", "", markdown_table(*table_rows(columns, api))]
    for name, _, summary in columns:
        failed = summary.get("failed_generations") or []
        if failed:
            out += ["", f"## Failed generations in {name}", ""]
            out += [f"- {f['sample']} (draw {f['draw']}): {f['error']}" for f in failed]
    return "\n".join(out) + "\n"


def print_table(columns: list[RunColumn], scope: str | None = None) -> None:
    """The overall (or one API's) table on the terminal."""
    from rich.console import Console
    from rich.table import Table

    header, body = table_rows(columns, scope)
    table = Table(title="wapii" + (f" — {scope}" if scope else ""), show_lines=False)
    for i, title in enumerate(header):
        table.add_column(title, justify="left" if i == 0 else "right")
    for cells in body:
        table.add_row(*cells)
    Console().print(table)
