"""The wapii plugin entry point of ``wapii-nethttp-go``: registers the ``nethttp_go`` adapter.

Registering imports nothing of the adapter; the Go toolchain is looked for only when the adapter
first builds or runs code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wapii_core.api import hookimpl


def nethttp_adapter(**options: Any) -> Any:
    """A new adapter (its module is imported only when one is made)."""
    from .adapter import NetHttpGoAdapter

    return NetHttpGoAdapter(**options)


@hookimpl
def register_adapters(register: Callable[..., None]) -> None:
    register(
        "nethttp_go",
        nethttp_adapter,
        description="Go's net/http: programs compiled in batches and run one process each, captured as net/http writes them",
    )
