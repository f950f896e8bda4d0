"""``wapii report``: the paper's table for one or more run directories."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer


def add_to(app: typer.Typer) -> None:
    @app.command("report")
    def report_command(
        run_dirs: list[Path] = typer.Argument(..., help="Run directories (one column each)."),
        by_api: bool = typer.Option(False, "--by-api", help="Also give one table per API."),
        fmt: str = typer.Option("table", "--format", "-f", help="table, md or json."),
        out: Optional[Path] = typer.Option(None, "--out", help="Write to this file instead of the terminal."),
    ) -> None:
        """Print (or write) the table of the paper's rows with the runs as columns."""
        from ..errors import WapiiError
        from ..report import markdown_report, print_table
        from ..store import load_run, load_summary, write_atomic

        columns = [(str(d), load_run(d), load_summary(d)) for d in run_dirs]
        if fmt == "md":
            text = markdown_report(columns)
        elif fmt == "json":
            text = json.dumps({name: summary for name, _, summary in columns}, indent=2) + "\n"
        elif fmt == "table":
            if out is not None:
                raise WapiiError("--format table prints to the terminal; use --format md or json with --out")
            print_table(columns)
            if by_api:
                for api in sorted({a for _, _, s in columns for a in s.get("per_api", {})}):
                    print_table(columns, api)
            return
        else:
            raise WapiiError(f"unknown report format {fmt!r} (known: table, md, json)")
        if out is None:
            typer.echo(text, nl=False)
        else:
            write_atomic(out, text)
