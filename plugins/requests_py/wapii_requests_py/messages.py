"""A request as requests or httpx hands it to its transport: the :data:`wapii_core.kits.python.RequestMessage` that
the harness sends down the wire channel (method, full URL, headers in the order and spelling sent,
body bytes)."""

from __future__ import annotations

from typing import Any

from wapii_core.kits.python import RequestMessage


def _read_all(body: Any) -> bytes:
    if body is None:
        return b""
    if isinstance(body, str):
        return body.encode("utf-8")
    if isinstance(body, (bytes, bytearray, memoryview)):
        return bytes(body)
    if hasattr(body, "read"):
        data = body.read()
        return data.encode("utf-8") if isinstance(data, str) else bytes(data)
    return b"".join(chunk.encode("utf-8") if isinstance(chunk, str) else bytes(chunk) for chunk in body)


def _text(value: Any) -> str:
    return value.decode("latin-1") if isinstance(value, (bytes, bytearray)) else str(value)


def requests_message(prepared: Any) -> RequestMessage:
    """The message of a ``requests.PreparedRequest``."""
    return (_text(prepared.method), _text(prepared.url),
            [(_text(name), _text(value)) for name, value in prepared.headers.items()], _read_all(prepared.body))


def httpx_message(request: Any) -> RequestMessage:
    """The message of an ``httpx.Request`` (its body already read)."""
    return (request.method, str(request.url),
            [(name.decode("latin-1"), value.decode("latin-1")) for name, value in request.headers.raw],
            bytes(request.content))
