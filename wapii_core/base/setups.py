"""The benchmark's setups, in a module of their own: the CLI declares its options with them without
importing the pydantic models of :mod:`wapii_core.base.model` (which re-exports them)."""

from __future__ import annotations

from enum import Enum


class Setup(str, Enum):
    """How much of the program the prompt already gives: the benchmark's three setups of one call,
    and ``workflow``, where the model writes a whole program of several calls (docs/workflows.md)."""

    full = "full"  # starter ends with ``axios.``: the model writes method, URL and arguments
    argument = "argument"  # starter ends with ``axios.<method>('<url>',``: the model writes the arguments
    imports = "import"  # starter is only the import: the model writes the whole call
    workflow = "workflow"  # starter is the import and the task as a comment: the model writes the whole program


CALL_SETUPS: tuple[Setup, ...] = (Setup.full, Setup.argument, Setup.imports)
"""The setups of a one-call task (the published benchmark's): what an adapter's ``render`` and
``prompt`` take for a sample with a ``config``."""
