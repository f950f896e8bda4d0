"""Errors that the CLI turns into a one-line message and exit code 2."""

from __future__ import annotations

from pathlib import Path
from typing import Any


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


class GenerationsFailed(WapiiError):
    """A run finished, but some of its generations failed (their samples are not scored).

    Exit code 3, distinct from bad input (2): the message names the cause and how many samples it
    hit; running the same command again retries them.
    """

    exit_code = 3


class GenerationPending(Exception):
    """A backend's answers are not ready yet (e.g. a provider-side batch still running).

    Not an error: the CLI prints the message (the status, and how to continue) and exits 0; what
    was generated so far is stored, and running the same command again picks up the same work.
    """


def did_you_mean(name: str, known: list[str]) -> str:
    """`` (did you mean 'axios_js'?)`` when ``name`` is close to one of ``known``, else ``""``."""
    import difflib

    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def json_type_name(value: Any) -> str:
    """How an error message names the type of a parsed JSON (or YAML) value: "an object", "a list", ..."""
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "a number",
             float: "a number", type(None): "null"}
    return names.get(type(value), f"a {type(value).__name__}")
