"""aiohttp as a benchmark target: its :class:`wapii_core.kits.python.PythonLibrary` record.

- calls are made on a ``ClientSession`` named ``session``, in an ``async with`` header
  (``async with session.get(url, …) as response:``), so a program that ends right after the call's
  closing parenthesis still issues the request;
- a query value is written by yarl: ``str`` for strings, ints and floats; booleans and ``None``
  are refused (``TypeError``), so the strings ``'true'`` / ``'false'`` are how an aiohttp program
  writes a boolean query value, and reference mode reads them as that boolean;
- its own headers: ``Accept: */*``, ``Accept-Encoding``, ``User-Agent`` (read from the installed
  aiohttp), the ``Content-Type: application/octet-stream`` it adds to a POST, PUT or PATCH
  whose code set none, and ``Connection: close`` (``aiohttp.request()``'s one-off session).
"""

from __future__ import annotations

from typing import Any

from wapii_core.kits.python import PythonLibrary

OCTET_STREAM = "application/octet-stream"


def _defaults() -> dict[str, str]:
    from aiohttp.client_reqrep import ClientRequest
    from aiohttp.http import SERVER_SOFTWARE

    return {**{str(name): value for name, value in ClientRequest.DEFAULT_HEADERS.items()},
            "User-Agent": SERVER_SOFTWARE, "Content-Type": OCTET_STREAM, "Connection": "close"}


def query_text(value: Any) -> str | None:
    """How yarl writes one query value: ``str()`` of a string, int or float; None for what it refuses
    (booleans, ``None``, anything else raises ``TypeError`` in the program)."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return None
    return str(value)


def written_value(value: Any) -> Any:
    """The query value reference mode judges: ``'true'`` / ``'false'`` as booleans (the only way to
    write one with aiohttp), anything else as written; a list item by item."""
    if isinstance(value, list):
        return [written_value(item) for item in value]
    return {"true": True, "false": False}.get(value, value) if isinstance(value, str) else value


AIOHTTP = PythonLibrary("aiohttp_py", "aiohttp", "aiohttp", (), _defaults, query_text, caller="session",
                        written_value=written_value, request_in_header=True,
                        body_syntax="json=... for JSON, data=... for a form or aiohttp.FormData")
