"""``wapii backends [NAME] [--options]``: the installed backends, and what a backend's ``-O`` options mean."""

from __future__ import annotations

from typing import Optional

import typer


def backends_command(
    name: Optional[str] = typer.Argument(None, help="A backend (default: list them all)."),
    options: bool = typer.Option(False, "--options", help="List the backend's -O KEY=VALUE options: type, "
                                                          "default and meaning."),
) -> None:
    """The installed backends; with NAME --options, every option of that backend and what it means."""
    from rich.console import Console
    from rich.table import Table

    from wapii_core.base import plugins
    from wapii_core.base.errors import WapiiError

    console = Console()
    if name is None:
        if options:
            raise WapiiError("--options lists one backend's options: give its name (wapii backends hf --options)")
        table = Table(title="Backends (`wapii backends NAME --options` lists one's options)", title_justify="left")
        table.add_column("Name", no_wrap=True)
        table.add_column("Plugin", no_wrap=True)
        table.add_column("Description", overflow="fold", ratio=1)
        for backend, entry in sorted(plugins.backends.entries().items()):
            table.add_row(backend, str(entry.plugin), entry.description or "")
        console.print(table)
        return
    entry = plugins.backends.entry(name)  # an unknown name: one line with "did you mean"
    path = getattr(entry.value, "options_model", None)
    if not options:
        console.print(f"{name} ({entry.plugin}): {entry.description}", highlight=False, markup=False)
        console.print("its -O options: wapii backends " + name + " --options" if path else
                      "it takes no -O options", highlight=False, markup=False)
        return
    if path is None:
        console.print(f"backend {name!r} takes no -O options", highlight=False, markup=False)
        return
    from wapii_core.generation.option_docs import load_options_model, option_rows

    table = Table(title=f"Options of backend {name} (-O KEY=VALUE)", title_justify="left")
    for column in ("Option", "Type", "Default"):
        table.add_column(column, overflow="fold")
    table.add_column("Meaning", overflow="fold", ratio=1)
    for row in option_rows(load_options_model(path)):
        table.add_row(*row)
    console.print(table)
