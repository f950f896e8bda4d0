"""Ctrl-C and SIGTERM as an exception of their own: :class:`Interrupted`.

A leaf module: the command modules that clean up on an interruption (``view``, ``mock``) import it
from here, and :mod:`wapii_core.cli` installs the signal handler that raises it.
"""

from __future__ import annotations

from typing import Any


class Interrupted(BaseException):
    """Ctrl-C or SIGTERM, raised from the signal handler.

    Not a KeyboardInterrupt: typer turns that into a silent exit 130, and a command's cleanup (the
    progress display restoring the cursor, the run store closing its files) runs either way."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def raise_interrupted(signum: int, frame: Any) -> None:
    """The signal handler: raise :class:`Interrupted` for ``signum``."""
    raise Interrupted(signum)
