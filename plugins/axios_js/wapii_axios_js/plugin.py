"""The wapii plugin entry point of ``wapii-axios-js``: registers the ``axios_js`` adapter.

Registering imports nothing of the adapter; Node.js is looked for, and the npm packages installed,
only when the adapter first executes code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wapii_core.api import hookimpl


def axios_adapter(**options: Any) -> Any:
    """A new adapter (its module is imported only when one is made: `wapii --help` and runs with
    another adapter never import it)."""
    from .adapter import AxiosAdapter

    return AxiosAdapter(**options)


@hookimpl
def register_adapters(register: Callable[..., None]) -> None:
    register(
        "axios_js",
        axios_adapter,
        description="JavaScript + axios: calls run in a pool of Node workers, captured by axios-mock-adapter",
    )
