"""``wapii doctor``: which isolation layers protect generated code on this machine.

For the generic Python sandbox (``wapii_core.sandbox.PythonPool``, which the Python adapters use)
and for every installed adapter that reports its own sandbox (an ``isolation()`` method, e.g.
``axios_js``), prints each layer as active or not, with what it does or why it is missing and what
is left exposed. Exits 0 when every layer is active, 1 otherwise (``--require-isolation`` would
refuse to run), 2 on an error.
"""

from __future__ import annotations

import json
from typing import Any

import typer

from wapii_core.base.errors import WapiiError


def python_report() -> dict[str, Any]:
    """The layer report of the generic Python sandbox (no worker is started)."""
    from wapii_core.sandbox import PythonPool

    pool = PythonPool(preload=[], harness="json:dumps", workers=1)
    try:
        return pool.isolation().as_dict()
    finally:
        pool.close()


def adapter_reports(names: list[str] | None) -> dict[str, dict[str, Any]]:
    """``{adapter: report}`` for the adapters (default: all) that describe their own sandbox."""
    from wapii_core.base import plugins

    reports: dict[str, dict[str, Any]] = {}
    for name in names or plugins.adapters.names():
        adapter = plugins.adapters.get(name)()
        try:
            isolation = adapter.isolation()
            if isolation is not None:
                reports[name] = isolation.as_dict()
        except WapiiError as exc:
            reports[name] = {"error": str(exc)}
        finally:
            adapter.close()
    return reports


def _print(title: str, report: dict[str, Any]) -> None:
    typer.echo(title)
    if "error" in report:
        typer.echo(f"  cannot check: {report['error']}")
        return
    for layer in report["layers"]:
        mark = "ok " if layer["active"] else "OFF"
        typer.echo(f"  [{mark}] {layer['name']}: {layer['detail']}")
        if not layer["active"]:
            typer.echo(f"        not isolated: {layer['exposes']}")


def complete(report: dict[str, Any]) -> bool:
    return "error" not in report and all(layer["active"] for layer in report["layers"])


def doctor_command(
    adapter: list[str] = typer.Option([], "--adapter", "-a", help="Only these adapters (default: all)."),
    as_json: bool = typer.Option(False, "--json", help="Print the reports as JSON."),
) -> None:
    """Show which sandbox layers are active here (exit 1 if any is missing)."""
    from wapii_core.sandbox import isolation_required

    reports = {"python sandbox": python_report(), **{f"adapter {n}": r for n, r in adapter_reports(adapter).items()}}
    if as_json:
        typer.echo(json.dumps({"require_isolation": isolation_required(), "reports": reports}, indent=2))
    else:
        for title, report in reports.items():
            _print(title, report)
        missing = [title for title, report in reports.items() if not complete(report)]
        typer.echo("all layers active" if not missing else
                   f"incomplete isolation: {', '.join(missing)} (runs warn, or refuse with --require-isolation)")
    raise typer.Exit(0 if all(complete(r) for r in reports.values()) else 1)
