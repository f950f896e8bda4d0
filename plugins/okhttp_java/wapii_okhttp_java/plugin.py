"""The wapii plugin entry point of ``wapii-okhttp-java``: registers the ``okhttp_java`` adapter.

Registering imports nothing of the adapter; the JDK and OkHttp's jars are looked for when the adapter
first runs code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wapii_core.api import hookimpl


def okhttp_adapter(**options: Any) -> Any:
    from .adapter import OkHttpAdapter

    return OkHttpAdapter(**options)


@hookimpl
def register_adapters(register: Callable[..., None]) -> None:
    register("okhttp_java", okhttp_adapter,
             description="Java + OkHttp 3 (Debian's libokhttp-java): one JVM per program, captured as sent")
