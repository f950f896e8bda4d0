"""The wapii plugin entry point of ``wapii-requests-py``: registers ``requests_py`` and ``httpx_py``.

Registering is cheap: the libraries are imported when an adapter first normalises or executes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wapii_core.api import hookimpl


def requests_adapter(**options: Any) -> Any:
    """A new requests adapter (its module is imported only when one is made)."""
    from .adapter import requests_adapter as make

    return make(**options)


def httpx_adapter(**options: Any) -> Any:
    """A new httpx adapter (its module is imported only when one is made)."""
    from .adapter import httpx_adapter as make

    return make(**options)


@hookimpl
def register_adapters(register: Callable[..., None]) -> None:
    register(
        "requests_py",
        requests_adapter,
        description="Python + requests: calls run in forked, pre-loaded Python workers, captured by responses",
    )
    register(
        "httpx_py",
        httpx_adapter,
        description="Python + httpx (sync and async clients): calls run in forked Python workers, captured by respx",
    )
