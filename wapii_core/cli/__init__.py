"""The ``wapii`` command line: a typer app, one module per command group."""

from __future__ import annotations

import functools
import gc
import signal
import sys
from typing import Any, Optional

import click
import typer

from wapii_core.base.errors import GenerationPending, WapiiError

app = typer.Typer(
    name="wapii",
    help="Benchmark how well language models write code that calls web APIs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class Interrupted(BaseException):
    """Ctrl-C or SIGTERM, raised from the signal handler.

    Not a KeyboardInterrupt: typer turns that into a silent exit 130, and a command's cleanup (the
    progress display restoring the cursor, the run store closing its files) runs either way."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_interrupted(signum: int, frame: Any) -> None:
    raise Interrupted(signum)


def _version(value: bool) -> None:
    if value:
        import importlib.metadata as md

        typer.echo(f"wapii {md.version('wapii')}")
        raise typer.Exit()


@app.callback()
def _options(version: Optional[bool] = typer.Option(None, "--version", callback=_version, is_eager=True,
                                                    help="Print the version and exit.")) -> None:
    """Benchmark how well language models write code that calls web APIs."""


def _add_builtin_commands() -> None:
    from wapii_core.cli import (adapters_cmd, backends_cmd, cluster, compare, datasets, doctor, merge, plugins_cmd,
                                report, run, show, view)

    run.add_to(app)
    report.add_to(app)
    show.add_to(app)
    compare.add_to(app)
    datasets.add_to(app)
    plugins_cmd.add_to(app)
    backends_cmd.add_to(app)
    doctor.add_to(app)
    adapters_cmd.add_to(app)
    merge.add_to(app)
    cluster.add_to(app)
    view.add_to(app)


@functools.cache
def build_command() -> click.Command:
    """The whole ``wapii`` command: the built-in commands, those of the installed plugins, plain help
    texts (what ``wapii --help`` shows and what docs/reference/cli.md is generated from). Built once
    per process: the commands are added to the one typer ``app``."""
    _add_builtin_commands()
    from wapii_core.base.plugins import register_commands

    register_commands(app)
    from wapii_core.cli.helptext import tidy_help

    command = typer.main.get_command(app)
    tidy_help(command)
    return command


def main() -> None:
    """Entry point of the ``wapii`` console script.

    A :class:`WapiiError` (bad input, missing tool, unknown name) becomes one line on stderr and
    its exit code (2; 3 when generations failed), without a traceback; work still pending at a
    provider (:class:`GenerationPending`) prints its status and exits 0. Temporary files live in
    the process's own scratch directory, and those that killed wapii processes left behind are
    removed first (:mod:`wapii_core.base.scratch`).
    """
    from wapii_core.base.scratch import process_scratch

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _raise_interrupted)
    try:
        command = build_command()
        with process_scratch():
            command(prog_name="wapii")
    except WapiiError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except GenerationPending as pending:  # e.g. a provider-side batch still running: a status, not an error
        print(pending)
        sys.exit(0)
    except (KeyboardInterrupt, Interrupted) as exc:
        signum = getattr(exc, "signum", signal.SIGINT)
        what = "interrupted" if signum == signal.SIGINT else "terminated"
        print(f"{what}: finished samples are kept; rerun the same command to resume", file=sys.stderr)
        sys.exit(128 + signum)
    finally:
        # The process ends here: spare it the collector's passes over every object at interpreter
        # exit (a few tenths of a second after a run; everything is written and closed by now).
        gc.freeze()
