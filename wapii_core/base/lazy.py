"""A package's public names imported on first use: :func:`lazy_exports`.

A facade (the plugin API, the sandbox) lists where each of its names lives; ``from facade import X``
then costs only the modules X needs, so that a sandboxed worker or ``wapii --help`` stays small.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def lazy_exports(package: str, where: dict[str, str],
                 unknown: str = "module {package!r} has no attribute {name!r}") -> tuple[Callable[[str], Any],
                                                                                         Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of module ``package`` whose names ``where`` maps to the module
    defining each (absolute, or relative to ``package`` when it starts with ``.``); a name is imported on
    first use and then kept in the module. ``unknown``: the message of the ``AttributeError`` for any
    other name (``{package}`` and ``{name}`` filled in)."""

    def __getattr__(name: str) -> Any:
        if name not in where:
            raise AttributeError(unknown.format(package=package, name=name))
        value = getattr(importlib.import_module(where[name], package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(where)

    return __getattr__, __dir__
