"""A small harness for the sandbox's own tests: runs a Python snippet, capturing ``urllib.request``.

The snippet sees ``urlopen`` and ``Request``; every request it opens is sent down the sandbox's wire
channel by a handler that never touches the network, and ``run_snippet`` raises
:class:`~wapii_core.sandbox.NoRequest` when there was none. On the supervisor's side,
:func:`request_of` reads the last request sent back as ``{"url", "method", "headers", "data"}``.
(The Python adapters bring their own harness; this one only serves the sandbox tests.)
"""

from __future__ import annotations

import urllib.error
import urllib.request
from typing import Any

from wapii_core.sandbox import NoRequest, SnippetResult
from wapii_core.sandbox.wire_capture import parse_requests, send_request


class _Captured(Exception):
    pass


def run_snippet(code: str) -> dict[str, Any]:
    """Executes ``code`` as a module and returns the last request it opened."""
    captured: list[str] = []

    class Capture(urllib.request.BaseHandler):
        handler_order = 100

        def _record(self, request: urllib.request.Request) -> None:
            data = request.data.encode() if isinstance(request.data, str) else request.data or b""
            headers = sorted(request.header_items())
            if not any(name.lower() == "host" for name, _ in headers):
                headers.append(("Host", request.host))
            send_request(request.get_method(), request.full_url, sorted(headers), bytes(data))
            captured.append(request.full_url)
            raise _Captured

        http_open = https_open = _record

    opener = urllib.request.build_opener(Capture)

    def urlopen(request: Any, *args: Any, **kwargs: Any) -> None:
        try:
            opener.open(request, *args, **kwargs)
        except _Captured:
            return None
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, _Captured):
                return None
            raise

    namespace = {"__name__": "__main__", "urlopen": urlopen, "Request": urllib.request.Request}
    exec(compile(code, "<snippet>", "exec"), namespace)  # noqa: S102 - running it is the point
    if not captured:
        raise NoRequest("the snippet ran without opening a request")
    return {"sent": len(captured)}


def request_of(result: SnippetResult) -> dict[str, Any] | None:
    """The last request a snippet sent, as ``{"url", "method", "headers", "data"}`` (without the
    framing header ``Content-Length``), or None when it sent none; raises
    :class:`~wapii_core.sandbox.wire_capture.WireError` for bytes that are no HTTP request."""
    sent = parse_requests(result.wire)
    if not sent:
        return None
    last = sent[-1]
    headers = {name: value for name, value in last.headers if name.lower() != "content-length"}
    return {"url": last.target, "method": last.method, "headers": headers, "data": last.body.decode() or None}
