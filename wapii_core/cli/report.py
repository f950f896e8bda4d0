"""``wapii report``: the paper's tables for one or more run directories, in five formats."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

FORMATS = ("table", "md", "csv", "json", "html")


def add_to(app: typer.Typer) -> None:
    @app.command("report")
    def report_command(
        run_dirs: list[Path] = typer.Argument(..., help="Run directories (one column each)."),
        by_api: bool = typer.Option(False, "--by-api", help="Per-API breakdown of each run (columns Overall + "
                                                             "each API) instead of runs side by side."),
        fmt: str = typer.Option("table", "--format", "-f", help="table, md, csv, json or html."),
        out: Optional[Path] = typer.Option(None, "--out", help="Write to this file instead of the terminal "
                                                               "(html: plots as PNG and SVG next to it)."),
        resamples: int = typer.Option(2000, "--resamples", min=0,
                                      help="Bootstrap resamples of tasks for the 95 % intervals (0: none)."),
        seed: int = typer.Option(0, "--seed", help="Seed of the bootstrap."),
    ) -> None:
        """The paper's rows for each run: full and argument completion in separate tables, best value
        per row highlighted, 95 % bootstrap intervals and paired tests of correct implementations."""
        from ..errors import WapiiError
        from ..report import build_report, load_runs, render_markdown
        from ..store import load_run, write_atomic

        if fmt not in FORMATS:
            raise WapiiError(f"unknown report format {fmt!r} (known: {', '.join(FORMATS)})")
        if fmt == "table" and out is not None:
            raise WapiiError("--format table prints to the terminal; use --format md, csv, json or html with --out")
        from ..compare_libraries import differences_markdown, library_differences

        several_libraries = len({load_run(d).get("adapter") for d in run_dirs}) > 1
        runs = load_runs(run_dirs, with_results=resamples > 0 or several_libraries)
        report = build_report(runs, by_api=by_api, resamples=resamples, seed=seed)
        differences = library_differences(runs) if several_libraries else []
        if fmt == "table":
            from ..report_formats import print_report

            print_report(report)
            if differences:
                typer.echo(differences_markdown(differences))
            return
        if fmt == "html" and out is not None:
            from ..report_html import write_html_report

            written = write_html_report(report, out)
            typer.echo(f"wrote {out} and {len(written) - 1} plot files next to it", err=True)
            return
        if fmt == "html":
            from ..report_html import html_text

            text = html_text(report)
        elif fmt == "md":
            text = render_markdown(report) + ("\n" + differences_markdown(differences) if differences else "")
        else:
            from ..report_formats import render_csv, render_json

            text = render_csv(report) if fmt == "csv" else render_json(report)
        if out is None:
            typer.echo(text, nl=False)
        else:
            write_atomic(out, text)
