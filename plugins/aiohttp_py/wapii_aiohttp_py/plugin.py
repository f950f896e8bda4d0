"""The wapii plugin entry point of ``wapii-aiohttp-py``: registers ``aiohttp_py``.

Registering is cheap: aiohttp is imported when the adapter first normalises or executes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wapii_core.api import hookimpl


def aiohttp_adapter(**options: Any) -> Any:
    """A new adapter (its module is imported only when one is made: `wapii --help` and runs with
    another adapter never import it)."""
    from .adapter import AiohttpAdapter

    return AiohttpAdapter(**options)


@hookimpl
def register_adapters(register: Callable[..., None]) -> None:
    register(
        "aiohttp_py",
        aiohttp_adapter,
        description="Python + aiohttp (async client): calls run in forked Python workers, captured at aiohttp's connector",
    )
