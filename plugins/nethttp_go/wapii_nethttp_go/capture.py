"""From a program's result to a :class:`Capture`, and from a captured request to the neutral config.

The request is only ever read from the bytes the program's process wrote to its capture channel
(net/http's own serialisation, through the overlay's round trip), parsed by wapii's h11 parser
outside that process; the program's exit code and output can make it fail, never change what it is
judged on. The normalisation is the Python adapters' wire normaliser (``normalise_python_request``)
with net/http's own headers (``User-Agent: Go-http-client/1.1``, ``Accept-Encoding: gzip``) as the
library's defaults.
"""

from __future__ import annotations

import base64
from typing import Any

from wapii_core.api import Capture, PythonLibrary, WireError, normalise_python_request, parse_requests

DEFAULT_HEADERS = {"User-Agent": "Go-http-client/1.1", "Accept-Encoding": "gzip"}


def _defaults() -> dict[str, str]:
    return dict(DEFAULT_HEADERS)


GO_LIBRARY = PythonLibrary(adapter="nethttp_go", module="net/http", title="net/http", bodyless_shorthands=(),
                           defaults=_defaults, query_text=str)
"""net/http described the way the shared wire normaliser reads a library."""


def _body(body: bytes) -> dict[str, str] | None:
    if not body:
        return None
    try:
        return {"text": body.decode("utf-8")}
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(body).decode("ascii")}


def to_capture(result: Any) -> Capture:
    """A :class:`~wapii_core.api.ProgramResult` as a Capture: the first request sent, or why there is none.

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
        tail = result.output_tail()
        detail = result.error if not result.detail else f"{result.error}: {result.detail}"
        return Capture(error="runtime_error", detail=f"{detail}: {tail}" if tail else detail)
    if not sent:
        return Capture(error="no_request", detail="the program ended without issuing a request")
    request = sent[0]
    record = {"method": request.method, "url": request.target,
              "headers": [[name, value] for name, value in request.headers], "body": _body(request.body),
              "passed": {}}
    detail = f"{len(sent)} requests issued; the first is judged" if len(sent) > 1 else None
    return Capture(request=record, detail=detail)


def normalise_record(record: dict[str, Any]) -> dict[str, Any]:
    return normalise_python_request(record, GO_LIBRARY)
