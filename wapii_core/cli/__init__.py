"""The ``wapii`` command line: a typer app, one module per command group.

The built-in commands are added to :data:`app` when this package is imported; the installed
plugins' commands (the ``register_commands`` hook) the first time :func:`build_command` runs. Both
happen once per process: :func:`invoke` runs one command line and can be called again and again in
the same process (the tests do), and :func:`main` is the console script, which runs one and exits.
"""

from __future__ import annotations

import contextlib
import functools
import signal
import sys
from typing import Any, Iterator, Optional, Sequence

import typer

from wapii_core.base.errors import GenerationPending, WapiiError
from wapii_core.cli import (adapters, backends, cluster_template, compare, datasets, doctor, export, merge, mock, plugins,
                            report, run, show, view)
from wapii_core.cli.interrupt import Interrupted, raise_interrupted
from wapii_core.cli.plain_help import App

app = App(name="wapii", help="Benchmark how well language models write code that calls web APIs.")


def _version(value: bool) -> None:
    if value:
        import importlib.metadata as md

        typer.echo(f"wapii {md.version('wapii')}")
        raise typer.Exit()


@app.callback()
def _options(version: Optional[bool] = typer.Option(None, "--version", callback=_version, is_eager=True,
                                                    help="Print the version and exit.")) -> None:
    """Benchmark how well language models write code that calls web APIs."""


BUILTIN_COMMANDS = {
    "run": run.run_command,
    "evaluate": run.evaluate_command,
    "report": report.report_command,
    "show": show.show_command,
    "compare": compare.compare_command,
    "plugins": plugins.plugins_command,
    "setup": plugins.setup_command,
    "backends": backends.backends_command,
    "doctor": doctor.doctor_command,
    "merge": merge.merge_command,
    "cluster-template": cluster_template.cluster_template_command,
    "view": view.view_command,
    "export": export.export_command,
    "mock": mock.mock_command,
}
"""The top-level commands in the order ``wapii --help`` lists them (then ``datasets``, a group)."""

for _name, _function in BUILTIN_COMMANDS.items():
    app.command(_name, context_settings=cluster_template.CONTEXT_SETTINGS if _name == "cluster-template" else None)(
        _function)
app.add_typer(datasets.datasets_app, name="datasets")
app.add_typer(adapters.adapters_app, name="adapters")


@functools.cache
def build_command() -> Any:
    """The whole ``wapii`` command (a click command): the built-in commands and those of the installed
    plugins, with plain help texts (what ``wapii --help`` shows and what docs/reference/cli.md is
    generated from). Built once per process."""
    from wapii_core.base.plugins import register_commands

    register_commands(app)
    return typer.main.get_command(app)


@contextlib.contextmanager
def _command_scope() -> Iterator[None]:
    """What one command line changes in the process, undone after it: Ctrl-C and SIGTERM raise
    :class:`Interrupted` (in the main thread; the handlers before are restored), ``--require-isolation``
    and the sandbox's once-per-command warnings start afresh, temporary files live in the command's
    own scratch directory (:mod:`wapii_core.base.scratch`, which first removes what killed wapii
    processes left behind)."""
    from wapii_core.base.scratch import process_scratch
    from wapii_core.sandbox.layers import isolation_scope

    handlers = {}
    with contextlib.ExitStack() as stack:
        try:
            for signum in (signal.SIGINT, signal.SIGTERM):
                handlers[signum] = signal.signal(signum, raise_interrupted)
        except ValueError:  # not the main thread: signals are the main thread's to handle
            pass
        stack.callback(lambda: [signal.signal(s, h) for s, h in handlers.items()])
        stack.enter_context(isolation_scope())
        stack.enter_context(process_scratch())
        yield


def invoke(args: Optional[Sequence[str]] = None) -> int:
    """Run ``wapii ARGS`` (default: the process's arguments) in this process and return its exit code.

    A :class:`WapiiError` (bad input, missing tool, unknown name) becomes one line on stderr and
    its exit code (2; 3 when generations failed), without a traceback; work still pending at a
    provider (:class:`GenerationPending`) prints its status and exits 0; Ctrl-C and SIGTERM print
    how to resume and exit 128 + the signal's number.
    """
    try:
        command = build_command()
        with _command_scope():
            command.main(args=list(sys.argv[1:] if args is None else args), prog_name="wapii")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except WapiiError as exc:  # its message may quote a sample id, a program's detail, a spec: made visible
        from wapii_core.base.text import visible

        print(f"error: {visible(exc)}", file=sys.stderr)
        return exc.exit_code
    except GenerationPending as pending:  # e.g. a provider-side batch still running: a status, not an error
        from wapii_core.base.text import visible

        print(visible(pending, lines=True))
        return 0
    except (KeyboardInterrupt, Interrupted) as exc:
        signum = getattr(exc, "signum", signal.SIGINT)
        what = "interrupted" if signum == signal.SIGINT else "terminated"
        print(f"{what}: finished samples are kept; rerun the same command to resume", file=sys.stderr)
        return 128 + signum
    return 0


def main() -> None:
    """Entry point of the ``wapii`` console script: :func:`invoke`, then exit with its code."""
    code = invoke()
    sys.stdout.flush()
    # The process ends here: spare it the collector's passes over every object at interpreter exit
    # (a few tenths of a second after a run; everything is written and closed by now).
    import gc

    gc.freeze()
    sys.exit(code)
