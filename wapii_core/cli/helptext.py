"""Help texts a reader can follow: plain metavars (``N``, ``PATH``, ``TEXT``) instead of typer's
``<int range>``, ``<list[str]>`` and ``<bool>``, and argument names in capitals (``RUN_DIR``, not
``{run_dir}``), for every command, the plugins' included."""

from __future__ import annotations

import click


def _metavar(param: click.Parameter) -> str:
    """What a value of ``param`` looks like in the help: ``N``, ``PATH``, ``A|B``, ``TEXT``."""
    from typing import get_args

    described = getattr(param, "type_descriptor", None)  # typer's own parameters
    if described is None:
        kind = param.type
        if isinstance(kind, click.Choice):
            return "|".join(str(c) for c in kind.choices)
        annotation: object = {click.INT: int, click.FLOAT: float}.get(kind, getattr(kind, "type", str))
        is_path = isinstance(kind, click.Path)
    else:
        if described.choices is not None:
            return "|".join(str(getattr(c, "value", c)) for c in described.choices)
        annotation = (get_args(described.annotation) or [described.annotation])[0] if described.is_list \
            else described.annotation
        is_path = described.is_path
    if is_path:
        return "PATH"
    if annotation is int:
        return "N"
    if annotation is float:
        return "X"
    return "TEXT"


def _plain_argument(param: click.Parameter) -> None:
    """``RUN_DIR...`` in the usage line and the help, without typer's ``{...}`` and type column."""
    usage = param.name.upper() + ("..." if param.nargs != 1 else "")
    param.metavar = usage
    if hasattr(param, "_usage_display_name"):  # typer: braces mark a required argument; plain is clearer
        param._usage_display_name = lambda: usage if param.required else f"[{usage}]"
    if hasattr(param, "display_type_rich"):
        param.display_type_rich = lambda ctx: None


def tidy_help(command: click.Command) -> None:
    """Give every parameter of ``command`` and its sub-commands a plain metavar (flags none)."""
    params = list(command.params)
    help_option = command.get_help_option(command.context_class(command))  # cached by click: the one --help shows
    if help_option is not None:
        params.append(help_option)
    for param in params:
        if param.metavar is not None:
            continue
        if param.param_type_name == "argument":  # typer's parameters are not click's own classes
            _plain_argument(param)
        elif getattr(param, "is_flag", False) or getattr(param, "count", False):
            param.metavar = ""
        else:
            param.metavar = _metavar(param)
    for sub in getattr(command, "commands", {}).values():
        tidy_help(sub)
