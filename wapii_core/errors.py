"""Errors that the CLI turns into a one-line message and exit code 2."""

from __future__ import annotations

from pathlib import Path


class WapiiError(Exception):
    """A problem the user can fix: bad input, a missing tool, an unknown name.

    The CLI prints ``error: <message>`` on one line, exits with code 2 and shows no traceback.
    """

    exit_code = 2


class InputError(WapiiError):
    """A malformed input file: the message names the file and the problem."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = " ".join(str(problem).split())  # always one line
        super().__init__(f"{self.path}: {self.problem}")


class MissingToolError(WapiiError):
    """An external tool (Node, npm, ...) that a plugin needs is not installed."""


class UnknownNameError(WapiiError):
    """A backend, adapter, metric or dataset name that no plugin registers."""


def one_line(exc: BaseException, limit: int = 200) -> str:
    """``TypeError: message`` on one line, cut to ``limit`` characters (for error details in run files)."""
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text if len(text) <= limit else text[:limit - 3] + "..."
