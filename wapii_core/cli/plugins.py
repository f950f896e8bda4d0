"""``wapii plugins`` and ``wapii setup``."""

from __future__ import annotations

import json

import typer


def plugins_command(
    as_json: bool = typer.Option(False, "--json", help="Print JSON: name, distribution, version, hooks, what "
                                                       "each plugin registers, problems, load failures."),
) -> None:
    """The installed plugins: what each registers (backends, adapters, metric providers, datasets),
    from which distribution, and any problem."""
    from wapii_core.base.plugins import describe_plugins

    if as_json:
        typer.echo(json.dumps(describe_plugins(), indent=2))
        return
    from wapii_core.cli.plugins_table import print_plugins

    print_plugins()

def setup_command(
    adapter: list[str] = typer.Option([], "--adapter", "-a", help="Only these adapters (default: all)."),
) -> None:
    """Install what the adapters need (e.g. the npm packages of axios_js); safe to repeat."""
    from wapii_core.base import plugins

    for name in adapter or plugins.adapters.names():
        instance = plugins.adapters.get(name)()
        try:
            instance.setup()
        finally:
            instance.close()
        typer.echo(f"{name}: ready")
