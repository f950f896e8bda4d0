"""The wapii plugin entry point of ``wapii-axios-js``: registers the ``axios_js`` adapter.

Importing the adapter is cheap (standard library only); Node.js is looked for, and the npm
packages installed, only when the adapter first executes code.
"""

from __future__ import annotations

from collections.abc import Callable

from wapii_core.api import hookimpl

from .adapter import AxiosAdapter


@hookimpl
def register_adapters(register: Callable[..., None]) -> None:
    register(
        "axios_js",
        AxiosAdapter,
        description="JavaScript + axios: calls run in a pool of Node workers, captured by axios-mock-adapter",
    )
