"""``wapii export``: one joined record per sample of a run directory (JSON lines), for a spreadsheet or pandas."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer


def export_command(
    run_dir: Path = typer.Argument(..., help="A run directory written by `wapii run` (also one still being "
                                             "written)."),
    fmt: str = typer.Option("jsonl", "--format", "-f", help="jsonl: one JSON object per sample and draw."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write to this file instead of the terminal."),
) -> None:
    """One record per sample: task, prompt, program, expected and captured request, exchanges, verdicts
    with their reasons, timings (pandas: read_json(FILE, lines=True))."""
    from wapii_core.base.errors import WapiiError
    from wapii_core.view.export import export_text

    if out is not None:
        from wapii_core.store.out_guard import check_report_out

        if out.is_dir():
            raise WapiiError(f"{out}: is a directory; give a file name (e.g. --out {out / 'samples.jsonl'})")
        check_report_out(out)
    text = export_text(run_dir, fmt)
    if out is None:
        typer.echo(text, nl=False)
        return
    from wapii_core.store.rundir import write_atomic

    write_atomic(out, text)
    typer.echo(f"wrote {out} ({text.count(chr(10))} samples)", err=True)
