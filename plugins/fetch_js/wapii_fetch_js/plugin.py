"""The wapii plugin entry point of ``wapii-fetch-js``: registers the ``fetch_js`` adapter.

Importing the adapter is cheap; Node.js is looked for, and the npm packages installed, only when
the adapter first executes code.
"""

from __future__ import annotations

from collections.abc import Callable

from wapii_core.api import hookimpl

from .adapter import FetchAdapter


@hookimpl
def register_adapters(register: Callable[..., None]) -> None:
    register(
        "fetch_js",
        FetchAdapter,
        description="JavaScript's built-in fetch: calls run in a pool of Node workers, captured as fetch serialises them",
    )
