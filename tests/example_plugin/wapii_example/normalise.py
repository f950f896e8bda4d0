"""From the bytes a snippet sent to the neutral request the judging reads.

:func:`to_capture` turns the pool's result into a :class:`Capture` holding the first request as
sent (method, URL, headers, body as text); :func:`normalise_record` turns that into the neutral
config (metrics.md §3) with the core's wire normaliser (``normalise_wire_request``): the URL
decoded without its query, the query as the strings sent (``params`` and ``sent_params``), the body
decoded by its content type, and the headers the program wrote (not those the wire framing adds,
``Host`` and ``Content-Length``, nor urllib's own ``User-Agent`` and its default form
``Content-Type`` on an empty body).
"""

from __future__ import annotations

from typing import Any

from wapii_core.api import Capture
from wapii_core.kits.wire import WireError, WireRequest, normalise_wire_request, parse_requests

FORM = "application/x-www-form-urlencoded"


def to_capture(result: Any) -> Capture:
    """A :class:`~wapii_core.kits.python.SnippetResult` as a Capture: the first request sent, or why there is none."""
    if not result.ok:
        if result.error == "no_request":
            return Capture(error="no_request", detail=result.detail)
        return Capture(error="runtime_error", detail=f"{result.error}: {result.detail}" if result.detail else result.error)
    try:
        sent = parse_requests(result.wire)
    except WireError as exc:
        return Capture(error="runtime_error", detail=f"bad_capture: {exc}")
    if not sent:
        return Capture(error="no_request", detail="the program ended without issuing a request")
    first = sent[0]
    try:
        body = first.body.decode("utf-8")
    except UnicodeDecodeError:
        return Capture(error="runtime_error", detail="bad_capture: the body is not UTF-8")
    record = {"method": first.method, "url": first.target, "headers": [list(h) for h in first.headers], "body": body}
    return Capture(request=record, detail=f"{len(sent)} requests issued; the first is judged" if len(sent) > 1 else None)


def _urllib_own(body: str):
    """Which sent headers are urllib's rather than the program's: its ``User-Agent``, and the form
    ``Content-Type`` it sets on a body the program did not type (only on an empty one: on a body it
    says how the body is encoded, and is judged)."""
    def own(name: str, value: str) -> bool:
        lowered = name.lower()
        return (lowered == "user-agent" and value.startswith("Python-urllib/")) or (
            lowered == "content-type" and value == FORM and not body)
    return own


def normalise_record(record: dict[str, Any]) -> dict[str, Any]:
    """The neutral config of a captured request: the core's wire normaliser, told urllib's own headers."""
    body = record["body"]
    sent = WireRequest(record["method"], record["url"], [(name, value) for name, value in record["headers"]],
                       body.encode("utf-8"))
    return normalise_wire_request(sent, own_header=_urllib_own(body))
