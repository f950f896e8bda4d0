"""The Node workers' answers, checked before anything of them reaches the judging.

A worker answers each call with ``{"request": {...}, "requests": n}`` or ``{"error", "detail"}``
(``js/run.js``); the supervisor adds ``timeout`` and ``worker_died``. The request is what the
library's hook recorded through the capture kit (``js/realm/session.js``): the kit never lets a
program write the answer, but it records whatever values the program had the library send, and the
judging, the normaliser and the metric providers expect the adapter's record of a request. Each
adapter states that record's schema as a pydantic model (for axios_js: ``url`` and ``method``
strings, ``headers`` an object of strings, ...); :func:`to_capture` checks each answer against it,
and one that does not fit is that call's ``runtime_error`` with a detail starting with
``bad_capture`` (for example ``bad_capture: path_params is not an object``), so that the run goes
on and the rest of it is judged as usual.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from wapii_core.base.model import Capture

BAD_CAPTURE = "bad_capture"

SANDBOX_ERRORS = ("timeout", "worker_died")
"""Errors of the sandbox (a call past its time, a worker that died): the call is a runtime error,
as a Node process that hung or crashed was in the reference pipeline."""


class Issued(BaseModel):
    """A call that issued ``requests`` requests; ``request`` is the kept one (checked separately)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    request: dict[str, Any]
    requests: int = Field(ge=1)


class Failed(BaseModel):
    """A call that did not issue a request that can be judged."""

    model_config = ConfigDict(extra="forbid", strict=True)

    error: Literal["runtime_error", "no_request", "timeout", "worker_died"]
    detail: str


_PROBLEMS = {
    "missing": "is missing",
    "extra_forbidden": "is not a field of a captured request",
    "string_type": "is not a string",
    "dict_type": "is not an object",
    "int_type": "is not an integer",
    "greater_than_equal": "is below 1",
    "literal_error": "is not an error the worker reports",
}


def _problem(error: ValidationError, what: str) -> str:
    """``bad_capture: <where> <problem>`` for the first thing wrong with ``what``."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or what
    return f"{BAD_CAPTURE}: {where} {_PROBLEMS.get(first['type'], 'is not valid: ' + first['msg'])}"


def to_capture(answer: Any, keep: str, schema: type[BaseModel]) -> Capture:
    """A worker's answer as a Capture whose request fits ``schema`` (a strict pydantic model of the
    adapter's record; unset fields stay absent); a call that issued several requests says which
    one is kept."""
    if not isinstance(answer, dict):
        return Capture(error="runtime_error", detail=f"{BAD_CAPTURE}: the worker's answer is not an object")
    try:
        if "error" in answer:
            failed = Failed.model_validate(answer)
            error = "runtime_error" if failed.error in SANDBOX_ERRORS else failed.error
            return Capture(error=error, detail=failed.detail)
        issued = Issued.model_validate(answer)
    except ValidationError as exc:
        return Capture(error="runtime_error", detail=_problem(exc, "the worker's answer"))
    try:
        request = schema.model_validate(issued.request).model_dump(exclude_unset=True)
    except ValidationError as exc:
        return Capture(error="runtime_error", detail=_problem(exc, "the request"))
    detail = f"{issued.requests} requests issued; the {keep} one is judged" if issued.requests > 1 else None
    return Capture(request=request, detail=detail)
