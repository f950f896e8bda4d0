"""The wapii plugin entry point of ``wapii-httpclient-java``: registers the ``httpclient_java`` adapter.

Registering imports nothing of the adapter; the JDK is looked for when the adapter first runs code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wapii_core.api import hookimpl


def httpclient_adapter(**options: Any) -> Any:
    from .adapter import HttpClientAdapter

    return HttpClientAdapter(**options)


@hookimpl
def register_adapters(register: Callable[..., None]) -> None:
    register("httpclient_java", httpclient_adapter,
             description="Java's java.net.http.HttpClient: compiled by the JDK, one JVM per program, captured as sent")
