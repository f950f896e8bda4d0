"""A Python pool result as a :class:`~wapii_core.base.model.Capture`: what every Python adapter's
``execute`` returns."""

from __future__ import annotations

from typing import Any

from wapii_core.base.model import Capture
from wapii_core.pyhttp.recording import wire_record
from wapii_core.pyhttp.source_query import written_query
from wapii_core.sandbox.wire_capture import WireError, parse_requests


def python_capture(result: Any, call: str, answered: bool = False) -> Capture:
    """A pool result as a Capture: the first request the snippet sent down the wire channel, or why
    there is none.

    Every failure of the run (an exception, a timeout, a killed or blocked worker) is a
    ``runtime_error`` whose detail names it, whatever was sent before it; a run that sent no request
    is ``no_request``; bytes that are no HTTP request, or hints of the wrong shape, are a
    ``runtime_error`` with a ``bad_capture`` detail. The request itself comes only from the bytes
    sent, and the typed query values of reference mode from the source of ``call``
    (:mod:`wapii_core.pyhttp.source_query`): the snippet's own answer can make it fail, never change what
    it is judged on. ``answered``: a responder answered the snippet, whose record is its exchanges (the
    first request of an answered run is never judged: its source is not read for query types).
    """
    return _judged(result, call, answered).model_copy(update={"exchanges": getattr(result, "exchanges", None)})


def _judged(result: Any, call: str, answered: bool = False) -> Capture:
    if not result.ok:
        if result.error == "no_request":
            return Capture(error="no_request", detail=result.detail)
        detail = result.error if not result.detail else f"{result.error}: {result.detail}"
        return Capture(error="runtime_error", detail=detail)
    try:
        sent = parse_requests(result.wire)
    except WireError as exc:
        return Capture(error="runtime_error", detail=f"bad_capture: {exc}")
    if not sent:
        return Capture(error="no_request", detail="the program ended without issuing a request")
    try:
        record = wire_record(sent[0], {} if answered else written_query(call))
    except ValueError as exc:
        return Capture(error="runtime_error", detail=f"bad_capture: {exc}")
    detail = f"{len(sent)} requests issued; the first is judged" if len(sent) > 1 else None
    return Capture(request=record, detail=detail)
