"""The ``wapii`` command line: a typer app, one module per command group."""

from __future__ import annotations

import gc
import sys

import typer

from ..errors import GenerationPending, WapiiError

app = typer.Typer(
    name="wapii",
    help="Benchmark how well language models write code that calls web APIs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _add_builtin_commands() -> None:
    from . import compare, datasets, doctor, plugins_cmd, report, run

    run.add_to(app)
    report.add_to(app)
    compare.add_to(app)
    datasets.add_to(app)
    plugins_cmd.add_to(app)
    doctor.add_to(app)


def main() -> None:
    """Entry point of the ``wapii`` console script.

    A :class:`WapiiError` (bad input, missing tool, unknown name) becomes one line on stderr and
    its exit code (2; 3 when generations failed), without a traceback; work still pending at a
    provider (:class:`GenerationPending`) prints its status and exits 0. Temporary files live in
    the process's own scratch directory, and those that killed wapii processes left behind are
    removed first (:mod:`wapii_core.scratch`).
    """
    from ..scratch import process_scratch

    try:
        _add_builtin_commands()
        from ..plugins import register_commands

        register_commands(app)
        with process_scratch():
            app()
    except WapiiError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except GenerationPending as pending:  # e.g. a provider-side batch still running: a status, not an error
        print(pending)
        sys.exit(0)
    except KeyboardInterrupt:
        print("interrupted: finished samples are kept; run the same command again to resume", file=sys.stderr)
        sys.exit(130)
    finally:
        # The process ends here: spare it the collector's passes over every object at interpreter
        # exit (a few tenths of a second after a run; everything is written and closed by now).
        gc.freeze()
