"""``wapii plugins`` on the terminal: one row per registered name, then problems and load failures."""

from __future__ import annotations

KINDS = (("backend", "backends"), ("adapter", "adapters"), ("metric provider", "metrics"), ("dataset", "datasets"))
"""Each registry's kind, as a row shows it, and its module attribute in :mod:`wapii_core.base.plugins`."""


def print_plugins() -> None:
    """A table of kind, name, plugin (distribution and version) and description; below it each
    registration problem and each plugin that failed to load, in one line."""
    import importlib.metadata

    from rich.console import Console
    from rich.table import Table

    from wapii_core.base import plugins

    manager = plugins.load_plugins()
    dists = {ep.name: ep.dist for ep in importlib.metadata.entry_points(group=plugins.GROUP)}
    table = Table(title="Registered names (`wapii plugins --json` for every detail)", title_justify="left")
    for column in ("Kind", "Name", "Plugin"):
        table.add_column(column, no_wrap=True)
    table.add_column("Description", overflow="fold", ratio=1)
    problems = []
    for kind, attribute in KINDS:
        registry = getattr(plugins, attribute)
        for name, entry in sorted(registry.entries().items()):
            default = " (applied by default)" if kind == "metric provider" and getattr(entry, "default", False) else ""
            table.add_row(kind.replace("metric provider", "metric"), name, str(entry.plugin),
                          (entry.description or "") + default)
            if entry.problem:
                problems.append(f"{kind} {name}: {entry.problem}")
    sources = Table(title="Plugins", title_justify="left")
    for column in ("Plugin", "Distribution", "Version"):
        sources.add_column(column, no_wrap=True)
    for name, _ in sorted(manager.list_name_plugin()):
        dist = dists.get(name)
        sources.add_row(name, dist.name if dist else "", dist.version if dist else "")
    console = Console()
    console.print(table)
    console.print(sources)
    for line in problems:
        console.print(f"problem: {line}", style="bold red", highlight=False, markup=False)
    for failure in plugins.failed_plugins:
        console.print(f"failed to load: {failure['name']} ({failure['distribution']}): {failure['error']}",
                      style="bold red", highlight=False, markup=False)
