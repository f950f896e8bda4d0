"""``wapii report``: the paper's tables for one or more run directories, in five formats."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from wapii_core.base.text import visible

if TYPE_CHECKING:
    from wapii_core.report.tables import Report

FORMATS = ("table", "md", "csv", "json", "html")

SUFFIXES = {".md": "md", ".markdown": "md", ".csv": "csv", ".json": "json", ".html": "html", ".htm": "html",
            ".txt": "table"}
"""The format an ``--out`` file name implies when ``--format`` is not given."""


def output_target(fmt: Optional[str], out: Optional[Path]) -> tuple[str, Optional[Path]]:
    """The format and the file of a report: ``--format`` as given, else implied by ``--out``'s suffix
    (``table`` without ``--out``); an ``--out`` that is a directory gets ``report.<format>`` in it.

    A format the file name contradicts, an unknown suffix without ``--format`` and a directory without
    ``--format`` are refused with one line."""
    from wapii_core.base.errors import WapiiError

    if fmt is not None and fmt not in FORMATS:
        raise WapiiError(f"unknown report format {fmt!r} (known: {', '.join(FORMATS)})")
    if out is None:
        return fmt or "table", None
    if out.is_dir():
        if fmt is None:
            raise WapiiError(f"{out}: is a directory; give a file name (report.html, report.md, ...) or --format "
                             "to write report.<format> into it")
        return fmt, out / f"report.{'txt' if fmt == 'table' else fmt}"
    implied = SUFFIXES.get(out.suffix.lower())
    if fmt is None:
        if implied is None:
            raise WapiiError(f"{out}: cannot tell the format from the name (known endings: "
                             f"{', '.join(SUFFIXES)}); give --format")
        return implied, out
    if implied not in (None, "table", fmt):
        raise WapiiError(f"{out}: the name says {implied}, --format says {fmt}; drop --format or rename the file")
    return fmt, out


def report_command(
    run_dirs: list[Path] = typer.Argument(..., help="Run directories (one column each)."),
    by_api: bool = typer.Option(False, "--by-api", help="Per-API breakdown of each run (columns Overall + "
                                                         "each API) instead of runs side by side."),
    leaderboard: bool = typer.Option(False, "--leaderboard",
                                     help="Runs as rows, sorted by correct implementations, the key rows as "
                                          "columns: for many runs."),
    fmt: Optional[str] = typer.Option(None, "--format", "-f",
                                      help="table, md, csv, json or html (default: from --out's ending, else "
                                           "table)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o",
                                       help="Write to this file instead of the terminal (html: plots as PNG and "
                                            "SVG next to it); a directory gets report.<format>."),
    intervals: bool = typer.Option(False, "--intervals",
                                   help="Show the 95 % intervals in the terminal table too."),
    resamples: int = typer.Option(2000, "--resamples", min=0,
                                  help="Bootstrap resamples of tasks for the 95 % intervals (0: none)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the bootstrap."),
    full: bool = typer.Option(False, "--full", help="On the terminal, every row, table and legend (default: "
                                                     "the headline rows; --by-api, --leaderboard and "
                                                     "--intervals are always full)."),
    libraries: bool = typer.Option(False, "--libraries",
                                   help="Also list the tasks one library solved and another did not (runs "
                                        "that differ in the adapter alone, on the same tasks)."),
) -> None:
    """The paper's rows for each run: full and argument completion in separate tables, best value
    per row highlighted, 95 % bootstrap intervals and paired tests of correct implementations."""
    from wapii_core.base.errors import WapiiError
    from wapii_core.report.tables import build_report, load_runs

    if by_api and leaderboard:
        raise WapiiError("give --by-api or --leaderboard, not both")
    fmt, out = output_target(fmt, out)
    if out is not None:
        from wapii_core.store.out_guard import check_report_out

        check_report_out(out)
    if fmt == "html" and out is None and sys.stdout.isatty():
        raise WapiiError("--format html writes a whole page: give --out report.html (or redirect the output "
                         "to a file)")
    from wapii_core.report.libraries import library_differences

    from wapii_core.run.live import read_summary

    runs = load_runs(run_dirs, with_results=resamples > 0 or libraries, summaries=read_summary)
    differences = []
    if libraries:
        from wapii_core.report.library_check import why_not_comparable

        reason = why_not_comparable(runs)
        if reason is not None:
            raise WapiiError(f"--libraries: {reason}")
        differences = library_differences(runs)
    report = build_report(runs, by_api=by_api, resamples=resamples, seed=seed, leaderboard=leaderboard)
    if fmt == "table" and out is None:
        _print_terminal(report, differences if libraries else None,
                        every_row=full or by_api or leaderboard or intervals, intervals=intervals)
    elif fmt == "html" and out is not None:
        from wapii_core.report.html import write_html_report

        written = write_html_report(report, out, differences)
        typer.echo(f"wrote {out} and {len(written) - 1} plot files next to it", err=True)
    else:
        text = _rendered(report, fmt, differences, libraries=libraries, intervals=intervals)
        if out is None:
            typer.echo(visible(text, lines=True), nl=False)  # a label or detail a run file chose
        else:
            from wapii_core.store.rundir import write_atomic

            write_atomic(out, text)
            if fmt != "table":
                typer.echo(f"wrote {out}", err=True)


def _print_terminal(report: "Report", differences: list | None, *, every_row: bool, intervals: bool) -> None:
    """The report on the terminal: the library differences first (``--libraries``), then every row
    or the headline rows, which end the output."""
    if differences is not None:
        from wapii_core.report.libraries import print_differences

        print_differences(differences, more="--format md lists them all")
    if every_row:
        from wapii_core.report.terminal import print_report

        print_report(report, intervals=intervals)
    else:
        from wapii_core.report.headline import print_headline

        print_headline(report, "--full, or --format md / html")


def _rendered(report: "Report", fmt: str, differences: list, *, libraries: bool, intervals: bool) -> str:
    """The report as the text of a file in ``fmt`` (``table``: as the terminal shows it, 120 wide)."""
    if fmt == "table":
        from wapii_core.report.terminal import render_terminal

        return render_terminal(report, intervals=intervals, width=120)
    if fmt == "html":
        from wapii_core.report.html import html_text

        return html_text(report, differences)
    if fmt == "md":
        from wapii_core.report.libraries import differences_markdown
        from wapii_core.report.tables import render_markdown

        return render_markdown(report) + ("\n" + differences_markdown(differences) if differences else "")
    from wapii_core.report.formats import render_csv, render_json

    if fmt == "csv":
        return render_csv(report)
    text = render_json(report)
    if libraries:
        import json

        text = json.dumps({**json.loads(text), "differences": differences}, indent=2) + "\n"
    return text
