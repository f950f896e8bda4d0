"""``wapii adapters list|check``: the installed adapters' capabilities, and the conformance kit
(:mod:`wapii_core.run.conformance`) run on one of them."""

from __future__ import annotations

import json
import typer

from wapii_core.cli.options import DataDirOption
from wapii_core.cli.plain_help import App

adapters_app = App(help="List the adapters' capabilities; check an adapter with the conformance kit.",
                           no_args_is_help=True)


@adapters_app.command("list")
def list_command(as_json: bool = typer.Option(False, "--json", help="Print the capabilities as JSON.")) -> None:
    """Every installed adapter with what it declares it can do (language, library, constrained
    decoding, single-call extraction, comparison modes, default mode)."""
    from wapii_core.base import plugins

    rows = {}
    for name in plugins.adapters.names():
        adapter = plugins.adapters.get(name)()
        try:
            rows[name] = {**adapter.capabilities.model_dump(mode="json"), "default_mode": adapter.default_mode}
        finally:
            adapter.close()
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    for name, row in rows.items():
        flags = [flag for flag in ("constrained", "single_call", "wire_capture") if row[flag]]
        typer.echo(f"{name:<16} {row['language']:<11} {row['library'] or '-':<10} modes {','.join(row['modes'])} "
                   f"(default {row['default_mode']}){'  ' + ' '.join(flags) if flags else ''}")


@adapters_app.command("check")
def check_command(
    name: str = typer.Argument(..., help="The adapter (`wapii adapters list`)."),
    dataset: list[str] = typer.Option([], "--dataset", "-d", help=(
        "Check the oracle on this dataset (repeat for several; default: demo).")),
    data_dir: DataDirOption = None,
    setup: list[str] = typer.Option([], "--setup", "-s", help="Only these setups (default: every one)."),
    mode: list[str] = typer.Option([], "--mode", help="Only these comparison modes (default: the adapter's)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Run the conformance kit on an adapter: the oracle's renderings of every expected request,
    executed in the sandbox and judged, must all be correct in every setup and mode it supports.
    Exits 0 when it conforms, 1 when a check fails."""
    from wapii_core.base.capabilities import MODES
    from wapii_core.base.errors import WapiiError, did_you_mean
    from wapii_core.cli.options import parse_setups
    from wapii_core.run.conformance import check_adapter
    from wapii_core.run.runner import load_dataset

    for value in mode:
        if value not in MODES:
            raise WapiiError(f"unknown comparison mode {value!r}{did_you_mean(value, list(MODES))} "
                             f"(known: {', '.join(MODES)})")
    datasets = [load_dataset(each, data_dir) for each in dict.fromkeys(dataset or ["demo"])]
    setups = parse_setups(setup) if setup else None
    report = check_adapter(name, datasets=datasets, modes=list(dict.fromkeys(mode)) or None,
                           **({"setups": setups} if setups else {}),
                           done=None if as_json else (lambda check: typer.echo(check.line())))
    if as_json:
        typer.echo(report.model_dump_json(indent=2))
    else:
        for problem in report.problems():
            typer.echo(f"  {problem}")
        typer.echo(f"{report.adapter}: {'conforms' if report.ok else 'does NOT conform'} "
                   f"({sum(check.ok for check in report.checks)} of {len(report.checks)} checks passed)")
    if not report.ok:
        raise typer.Exit(1)

