"""``wapii datasets list|show|fetch``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

datasets_app = typer.Typer(help="List, inspect and download datasets.", no_args_is_help=True)


@datasets_app.command("list")
def list_command(
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", envvar="WAPII_DATA_DIR",
                                            help="Look for the datasets' files here (default: the per-user cache)."),
) -> None:
    """The registered datasets and whether each is available here (`wapii run --dataset-dir DIR`
    benchmarks any directory in the WAPIIBench layout besides these)."""
    from wapii_core.base import plugins
    from wapii_core.base.errors import WapiiError

    for name, entry in sorted(plugins.datasets.entries().items()):
        try:
            entry.value(data_dir)
            state = "available"
        except WapiiError as exc:
            state = f"not available ({exc})"
        typer.echo(f"{name:<12} {state}\n{'':<12} {entry.description}")


@datasets_app.command("show")
def show_command(
    name: str = typer.Argument(..., help="Dataset name."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", envvar="WAPII_DATA_DIR",
                                            help="Where the dataset's files are (default: the per-user cache)."),
) -> None:
    """Where a dataset is, its sha256 and its samples per API, as JSON."""
    from wapii_core.base import plugins
    from wapii_core.datasets.loader import dataset_summary

    typer.echo(json.dumps(dataset_summary(plugins.datasets.get(name)(data_dir)), indent=2))


@datasets_app.command("fetch")
def fetch_command(
    name: str = typer.Argument("wapiibench", help="Dataset name."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", envvar="WAPII_DATA_DIR",
                                            help="Where to put it (default: the per-user cache)."),
    base_url: Optional[str] = typer.Option(None, "--base-url", help="Download from this mirror instead of upstream."),
) -> None:
    """Download a dataset and verify every file's sha256; nothing is half-written on failure."""
    from wapii_core.base import plugins
    from wapii_core.base.errors import WapiiError
    from wapii_core.base.paths import default_data_dir

    loader = plugins.datasets.get(name)
    fetch = getattr(loader, "fetch", None)
    if fetch is None:
        raise WapiiError(f"dataset {name!r} is bundled or local; there is nothing to fetch")
    target = fetch(data_dir or default_data_dir(name), base_url)
    typer.echo(f"{name}: ready in {target}, verified")


def add_to(app: typer.Typer) -> None:
    from wapii_core.cli.datasets_tools import add_to as add_tools

    add_tools(datasets_app)
    app.add_typer(datasets_app, name="datasets")
