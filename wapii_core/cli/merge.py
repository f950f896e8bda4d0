"""``wapii merge``: the shard directories of one run (``wapii run --shard I/N``) joined into one run directory."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from wapii_core.base.text import visible
from wapii_core.cli.options import QuietOption


def merge_command(
    shards: list[Path] = typer.Argument(..., help="The run directories of shards 0 to N-1 of one run."),
    out: Path = typer.Option(..., "--out", "-o", help="The merged run directory (new, or an empty directory)."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", envvar="WAPII_DATA_DIR",
                                            help="Where the dataset's files are (default: where the shards found "
                                                 "them)."),
    verify: bool = typer.Option(False, "--verify", help="Re-judge every shard's generations here and refuse a "
                                                         "shard whose stored verdicts differ (shards from "
                                                         "someone else)."),
    quiet: QuietOption = False,
) -> None:
    """Merge the shards of one run into one run directory: results, summary.json and report.md as an
    unsharded run writes them.

    Refused (exit 2, nothing written): shards of different runs, a missing, duplicate or unfinished shard,
    and with --verify a shard whose stored verdicts its re-judging does not give."""
    from wapii_core.report.tables import print_table
    from wapii_core.run.merge import merge
    from wapii_core.store.rundir import load_run

    summary = merge(shards, out, data_dir=data_dir, note=lambda text: typer.echo(visible(text), err=True),
                    verify=verify)
    if not quiet:
        typer.echo(f"run directory: {out} (merged from {len(shards)} shards)")
        print_table([(str(out), load_run(out), summary)])
