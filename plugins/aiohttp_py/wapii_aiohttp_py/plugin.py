"""The wapii plugin entry point of ``wapii-aiohttp-py``: registers ``aiohttp_py``.

Registering is cheap: aiohttp is imported when the adapter first normalises or executes.
"""

from __future__ import annotations

from collections.abc import Callable

from wapii_core.api import hookimpl

from .adapter import AiohttpAdapter


@hookimpl
def register_adapters(register: Callable[..., None]) -> None:
    register(
        "aiohttp_py",
        AiohttpAdapter,
        description="Python + aiohttp (async client): calls run in forked Python workers, captured at aiohttp's connector",
    )
