"""Help texts a reader can follow, in click's plain layout (no rich panels: ``wapii --help`` starts
without importing rich): plain metavars (``N``, ``PATH``, ``TEXT``) instead of typer's
``<int range>``, ``<list[str]>`` and ``<bool>``, and argument names in capitals (``RUN_DIR``, not
``{run_dir}``), for every command, the plugins' included.

:class:`App` is the typer app every ``wapii`` command is added to: its commands and groups are
built as :class:`PlainCommand` and :class:`PlainGroup`, which give each parameter its metavar when
they are built and lay out the usage line and the help through click's public methods.
"""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup


def metavar_of(param: Any) -> str:
    """What a value of ``param`` looks like in the help: ``N``, ``X``, ``PATH``, ``A|B``, ``TEXT``."""
    from typing import get_args

    described = getattr(param, "type_descriptor", None)  # typer's parameters describe their annotation
    if described is None:  # a parameter declared the click way: its type says it
        choices = getattr(param.type, "choices", None)
        if choices:
            return "|".join(str(c) for c in choices)
        name = getattr(param.type, "name", "")
        return {"integer": "N", "float": "X", "path": "PATH", "file": "PATH"}.get(name, "TEXT")
    if described.choices is not None:
        return "|".join(str(getattr(c, "value", c)) for c in described.choices)
    annotation = (get_args(described.annotation) or [described.annotation])[0] if described.is_list \
        else described.annotation
    if described.is_path:
        return "PATH"
    return {int: "N", float: "X"}.get(annotation, "TEXT")


def _give_metavars(params: list[Any]) -> None:
    """A metavar for every parameter that has none: arguments their name in capitals (``...`` when
    they take several values), options what their values look like, flags none."""
    for param in params:
        if param.metavar is not None:
            continue
        if param.param_type_name == "argument":
            param.metavar = param.name.upper() + ("..." if param.nargs != 1 else "")
        elif not (getattr(param, "is_flag", False) or getattr(param, "count", False)):
            param.metavar = metavar_of(param)


def _usage_pieces(command: Any, ctx: Any) -> list[str]:
    """``[OPTIONS] RUN_DIR [SAMPLE]``: a required argument plain, an optional one in brackets."""
    pieces = [command.options_metavar] if command.options_metavar else []
    for param in command.get_params(ctx):
        if param.param_type_name == "argument":
            pieces.append(param.metavar if param.required else f"[{param.metavar}]")
        else:
            pieces.extend(param.get_usage_pieces(ctx))
    return pieces


def _argument_record(param: Any) -> tuple[str, str]:
    extra = [f"env var: {param.envvar}"] if getattr(param, "show_envvar", False) and param.envvar else []
    extra += ["required"] if param.required else []
    help_text = getattr(param, "help", None) or ""
    return param.metavar, " ".join(part for part in (help_text, f"[{'; '.join(extra)}]" if extra else "") if part)


def _format_parameters(command: Any, ctx: Any, formatter: Any) -> None:
    """The ``Arguments`` section (name, help, ``[required]``), then the ``Options`` section."""
    params = [p for p in command.get_params(ctx) if not getattr(p, "hidden", False)]
    arguments = [_argument_record(p) for p in params if p.param_type_name == "argument"]
    options = [record for p in params if p.param_type_name == "option" and (record := p.get_help_record(ctx))]
    if arguments:
        with formatter.section("Arguments"):
            formatter.write_dl(arguments)
    if options:
        with formatter.section("Options"):
            formatter.write_dl(options)


class PlainCommand(TyperCommand):
    """A typer command whose help shows plain metavars and argument names."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _give_metavars(self.params)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return _usage_pieces(self, ctx)

    def format_options(self, ctx: Any, formatter: Any) -> None:
        _format_parameters(self, ctx, formatter)


class PlainGroup(TyperGroup):
    """A typer group whose help shows plain metavars, then its commands."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _give_metavars(self.params)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return [*_usage_pieces(self, ctx), self.subcommand_metavar]

    def format_options(self, ctx: Any, formatter: Any) -> None:
        _format_parameters(self, ctx, formatter)
        self.format_commands(ctx, formatter)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """Each command with the first paragraph of its help, whole (click cuts it at the first full
        stop or at the line's end, which leaves "(e.g." or half a sentence)."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                text = command.short_help or (command.help or "").split("\n\n", 1)[0]
                rows.append((name, " ".join(text.split())))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


class App(typer.Typer):
    """A typer app whose commands and groups are :class:`PlainCommand` and :class:`PlainGroup`, with
    click's plain help layout (``rich_markup_mode=None``) and typer's own exception display off."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("cls", PlainGroup)
        kwargs.setdefault("rich_markup_mode", None)
        kwargs.setdefault("pretty_exceptions_enable", False)
        kwargs.setdefault("add_completion", False)
        kwargs.setdefault("no_args_is_help", True)
        super().__init__(**kwargs)

    def command(self, name: str | None = None, *, cls: type[TyperCommand] | None = None, **kwargs: Any) -> Any:
        return super().command(name, cls=cls or PlainCommand, **kwargs)
