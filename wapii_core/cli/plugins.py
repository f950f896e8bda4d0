"""``wapii plugins`` and ``wapii setup``."""

from __future__ import annotations

import json
from typing import Any, Callable

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
    """Install what the adapters need (their Debian packages, as root; npm packages, toolchains, class
    archives); safe to repeat. Each adapter is set up on its own: one that cannot be set up says in one
    line what to install and the others still are. Exit status 0 when every adapter asked for is ready,
    1 when one is not, 2 for an unknown adapter name."""
    from wapii_core.base import plugins

    names = adapter or plugins.adapters.names()
    for name in names:
        plugins.adapters.entry(name)  # an unknown or broken name is bad input: exit 2 before any work
    not_ready = [name for name in names if not _set_up(name, plugins.adapters.get(name))]
    if not_ready:
        typer.echo(f"wapii setup: not ready: {', '.join(not_ready)} (the others are ready)", err=True)
        raise typer.Exit(1)


def _set_up(name: str, factory: Callable[[], Any]) -> bool:
    """Sets up one adapter: its Debian packages, then its own ``setup()``; one line either way."""
    from wapii_core.base.debian import ensure_packages
    from wapii_core.base.errors import WapiiError
    from wapii_core.base.text import exception_line, shortened_line, visible

    def not_ready(exc: Exception) -> bool:  # an installer's message may carry anything: shown inert
        detail = shortened_line(exc) if isinstance(exc, WapiiError) else exception_line(exc)
        typer.echo(f"{name}: not ready: {visible(detail)}", err=True)
        return False

    try:
        instance = factory()
    except Exception as exc:  # noqa: BLE001 - one adapter's failure is one line; the others go on
        return not_ready(exc)
    try:
        installed = ensure_packages(list(instance.capabilities.system_packages), name)
        if installed:
            typer.echo(f"{name}: installed {' '.join(installed)}")
        instance.setup()
    except Exception as exc:  # noqa: BLE001
        return not_ready(exc)
    finally:
        instance.close()
    typer.echo(f"{name}: ready")
    return True
