"""A small harness for the sandbox's own tests: runs a Python snippet, capturing ``urllib.request``.

The snippet sees ``urlopen`` and ``Request``; every request it opens is captured by a handler that
never touches the network. ``run_snippet`` returns the last captured request as
``{"url", "method", "headers", "data"}``, or raises :class:`~wapii_core.sandbox.NoRequest`.
(The Python adapters bring their own harness; this one only serves the sandbox tests.)
"""

from __future__ import annotations

import urllib.error
import urllib.request
from typing import Any

from wapii_core.sandbox import NoRequest


class _Captured(Exception):
    pass


def run_snippet(code: str) -> dict[str, Any]:
    """Executes ``code`` as a module and returns the last request it opened."""
    captured: list[dict[str, Any]] = []

    class Capture(urllib.request.BaseHandler):
        handler_order = 100

        def _record(self, request: urllib.request.Request) -> None:
            data = request.data.decode() if isinstance(request.data, bytes) else request.data
            captured.append({"url": request.full_url, "method": request.get_method(),
                             "headers": dict(sorted(request.header_items())), "data": data})
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
    return captured[-1]
