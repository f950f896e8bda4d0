#!/usr/bin/env python3
"""Writes docs/reference/cli.md, the command-line reference, from the ``wapii`` command itself: every
command and sub-command with its usage, help text, arguments and options (those of the installed
plugins included), so the page cannot say anything the program does not.

    .venv/bin/python scripts/cli_reference.py           # regenerate the page
    .venv/bin/python scripts/cli_reference.py --check   # exit 1 if the page differs from the program

``tests/test_docs.py`` runs the check; ``make docs`` regenerates the page before building the site.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import click

PAGE = Path(__file__).resolve().parent.parent / "docs" / "reference" / "cli.md"

HEADER = """# Command-line reference

Every `wapii` command with its arguments and options, generated from the program by
`scripts/cli_reference.py` (a test fails when this page and `wapii --help` differ). The commands
explained with examples: [Commands](../commands.md).
"""


def _cell(text: str) -> str:
    """``text`` as one Markdown table cell."""
    return " ".join(text.split()).replace("|", "\\|")


def _default(param: click.Parameter) -> str:
    """The default a user sees, or '' (required parameters, flags that are off, empty lists)."""
    value = param.default
    if param.required or callable(value) or value is None or value is False or value in ((), []):
        return ""
    if getattr(param, "is_flag", False) and value is True:
        return "on"
    if isinstance(value, (list, tuple)):
        return ", ".join(f"`{v}`" for v in value)
    return f"`{getattr(value, 'value', value)}`"


def _names(param: click.Parameter) -> str:
    names = " / ".join(f"`{name}`" for name in [*param.opts, *param.secondary_opts])
    metavar = param.metavar or ""
    return f"{names} `{metavar}`" if metavar else names


def _section(command: click.Command, path: list[str]) -> list[str]:
    ctx = click.Context(command, info_name=" ".join(path))
    level = "##" if len(path) <= 2 else "###"
    lines = [f"{level} `{' '.join(path)}`", ""]
    lines += ["```text", " ".join(command.collect_usage_pieces(ctx)).join([f"Usage: {' '.join(path)} ", ""]).rstrip(),
              "```", ""]
    if command.help:
        lines += [click.unstyle(command.help).strip(), ""]
    params = [p for p in command.params if not getattr(p, "hidden", False)]
    arguments = [p for p in params if p.param_type_name == "argument"]
    options = [p for p in params if p.param_type_name == "option"]
    if arguments:
        lines += ["| argument | required | help |", "|---|---|---|"]
        lines += [f"| `{p.metavar or p.name.upper()}` | {'yes' if p.required else 'no'} | "
                  f"{_cell(getattr(p, 'help', None) or '')} |" for p in arguments]
        lines.append("")
    if options:
        lines += ["| option | default | help |", "|---|---|---|"]
        lines += [f"| {_names(p)} | {_default(p)} | {_cell(getattr(p, 'help', None) or '')}"
                  f"{' (required)' if p.required else ''} |" for p in options]
        lines.append("")
    subcommands = getattr(command, "commands", None)
    if subcommands:
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                lines += _section(sub, [*path, name])
    return lines


def render() -> str:
    """The whole page for the ``wapii`` command as installed now."""
    from wapii_core.cli import build_command

    return HEADER + "\n" + "\n".join(_section(build_command(), ["wapii"])).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the page differs from the program")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        if not PAGE.exists() or PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE}: out of date with the wapii command; run scripts/cli_reference.py", file=sys.stderr)
            return 1
        return 0
    PAGE.parent.mkdir(parents=True, exist_ok=True)
    PAGE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
