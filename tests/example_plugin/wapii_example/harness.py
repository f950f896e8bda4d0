"""Runs one extracted snippet inside the core's sandboxed Python pool, sending its first request
down the wire channel instead of the network.

Importing this module (in each worker's pre-loaded parent) installs a ``urllib.request`` opener
whose HTTP and HTTPS handlers send the request urllib has built (method, full URL, its headers
with those urllib adds itself, body) with ``send_request`` and then stop the program, as if the
request had been answered by nothing. Only those bytes are judged: what the snippet returns, or
any object it changes, can make it fail but never change what it is judged on.
"""

from __future__ import annotations

import urllib.request
from typing import Any

from wapii_core.kits.python import NoRequest, send_request


class RequestIssued(BaseException):
    """Ends the program at its first request (``except Exception`` in the snippet cannot catch it)."""


def _send(request: urllib.request.Request) -> Any:
    body = request.data if isinstance(request.data, bytes) else b"".join(request.data or [])
    send_request(request.get_method(), request.full_url, list(request.header_items()), body)
    raise RequestIssued


class _Http(urllib.request.HTTPHandler):
    def http_open(self, req: urllib.request.Request) -> Any:
        return _send(req)


class _Https(urllib.request.HTTPSHandler):
    def https_open(self, req: urllib.request.Request) -> Any:
        return _send(req)


urllib.request.install_opener(urllib.request.build_opener(_Http(), _Https()))


def run_snippet(code: str) -> dict[str, Any]:
    """Execute ``code`` until its first request; :class:`NoRequest` when it issues none."""
    try:
        exec(compile(code, "<program>", "exec"), {"__name__": "__main__"})  # noqa: S102 - in the sandbox
    except RequestIssued:
        return {"sent": True}
    raise NoRequest("the program ended without issuing a request")
