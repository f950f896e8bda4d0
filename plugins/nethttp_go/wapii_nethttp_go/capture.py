"""From a program's result to a :class:`Capture`, and from a captured request to the neutral config.

The request is only ever read from the bytes the program's process wrote to its capture channel
(net/http's own serialisation, through the overlay's round trip), parsed by wapii's h11 parser
outside that process; the program's exit code and output can make it fail, never change what it is
judged on. The normalisation is the core's wire normaliser (``normalise_wire_request``), told
net/http's own headers (``User-Agent: Go-http-client/1.1``, ``Accept-Encoding: gzip`` with those
values) so that they are not judged as the program's.
"""

from __future__ import annotations

from typing import Any

from wapii_core.api import Capture
from wapii_core.kits.wire import WireError, WireRequest, body_record, normalise_wire_request, parse_requests, raw_bytes

DEFAULT_HEADERS = {"user-agent": "Go-http-client/1.1", "accept-encoding": "gzip"}
"""The headers net/http's Transport adds on its own, with the values it gives them."""


def is_own_header(name: str, value: str) -> bool:
    """Whether ``name: value`` is a header net/http wrote by itself (the program wrote any other)."""
    return DEFAULT_HEADERS.get(name.lower()) == value


def _reason(output: bytes) -> str:
    """What a failed program said: its ``panic:`` or ``fatal error:`` line, else its last line."""
    lines = [line.strip() for line in output.decode("utf-8", "replace").splitlines() if line.strip()]
    for line in lines:
        if line.startswith(("panic:", "fatal error:", "wapii:")):
            return line[:300]
    return lines[-1][:300] if lines else ""


def to_capture(result: Any) -> Capture:
    """A :class:`~wapii_core.kits.sandbox.ProgramResult` as a Capture: the first request sent, or why there is none.

    A request sent is judged (net/http ends the program right after writing it, with exit code 0);
    a program that did not send one and failed is a ``runtime_error`` naming how (its exit code and
    the last line of its output: a panic, a compile error), one that ended cleanly without sending
    is ``no_request``.
    """
    try:
        sent = parse_requests(result.wire)
    except WireError as exc:
        return Capture(error="runtime_error", detail=f"bad_capture: {exc}")
    if not result.ok:
        tail = _reason(result.output)
        detail = result.error if not result.detail else f"{result.error}: {result.detail}"
        return Capture(error="runtime_error", detail=f"{detail}: {tail}" if tail else detail)
    if not sent:
        return Capture(error="no_request", detail="the program ended without issuing a request")
    request = sent[0]
    record = {"method": request.method, "url": request.target,
              "headers": [[name, value] for name, value in request.headers], "body": body_record(request.body),
              "passed": {}}
    detail = f"{len(sent)} requests issued; the first is judged" if len(sent) > 1 else None
    return Capture(request=record, detail=detail)


def normalise_record(record: dict[str, Any]) -> dict[str, Any]:
    """The neutral config of a request :func:`to_capture` recorded."""
    if not isinstance(record, dict) or not isinstance(record.get("url"), str):
        raise TypeError("a captured request is a JSON object with a string 'url'")
    sent = WireRequest(str(record.get("method", "")), record["url"],
                       [(name, value) for name, value in record.get("headers") or []], raw_bytes(record.get("body")))
    return normalise_wire_request(sent, own_header=is_own_header)
