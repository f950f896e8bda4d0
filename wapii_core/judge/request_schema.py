"""The strict shape of a neutral request config: what every captured request must be before it is judged.

An adapter's ``normalise`` turns what the sandboxed program made the library send into the neutral
config that the judging reads (metrics.md §3, :mod:`wapii_core.judge.compare`, :mod:`wapii_core.judge.wire`).
The program is an adversary: whatever reaches the judge passes :func:`check_request` first, and
anything else is that one sample's ``runtime_error`` (detail ``bad_capture: ...``), never the run's.

The shape (a key may be absent; a field that is ``null`` is ignored by the judging, metrics.md §3):

- ``url``, ``method``: strings (required);
- ``headers``, ``path_params``: objects mapping names to JSON scalars (string, number, boolean, null);
- ``params``: an object mapping names to JSON values; ``sent_params`` (the query exactly as sent,
  read by wire mode) likewise; ``sent_url`` (the URL with the escapes that change its meaning, such
  as ``%2F``, kept, read by wire mode): a string;
- ``data``: any JSON value;
- no other key.
"""

from __future__ import annotations

from typing import Any, Optional, Union

from pydantic import BaseModel, ConfigDict, JsonValue, StrictBool, StrictFloat, StrictInt, StrictStr, ValidationError

from wapii_core.base.text import one_line

JsonScalar = Union[StrictStr, StrictBool, StrictInt, StrictFloat, None]
"""A JSON scalar, taken as it is (no coercion)."""

_TAGS = frozenset({"str", "bool", "int", "float", "none", "dict", "list", "[key]"})
"""The names pydantic puts into an error's location for the member of a union (JsonValue, JsonScalar)."""

MAX_PROBLEM = 200
"""Characters of a problem description kept (it is stored in results.jsonl)."""


class NeutralRequest(BaseModel):
    """A captured request after the adapter's ``normalise``; see the module docstring."""

    model_config = ConfigDict(extra="forbid", strict=True)

    url: StrictStr
    method: StrictStr
    headers: Optional[dict[StrictStr, JsonScalar]] = None
    params: Optional[dict[StrictStr, JsonValue]] = None
    sent_params: Optional[dict[StrictStr, JsonValue]] = None
    sent_url: Optional[StrictStr] = None
    sent_method: Optional[StrictStr] = None
    data: JsonValue = None
    path_params: Optional[dict[StrictStr, JsonScalar]] = None


class BadCapture(ValueError):
    """A captured request that does not have the neutral shape; ``str()`` is one line naming what is wrong."""


def check_request(request: Any) -> dict[str, Any]:
    """``request`` itself when it has the neutral shape, else :class:`BadCapture`.

    The request is only checked, never converted: the judging sees exactly the values that were
    captured, with their presence and types.
    """
    if not isinstance(request, dict):
        raise BadCapture(f"the request is {_type_name(request)}, not an object")
    try:
        NeutralRequest.model_validate(request)
    except ValidationError as exc:
        raise BadCapture(_describe(exc)) from None
    except RecursionError:
        raise BadCapture("the request is nested too deeply") from None
    return request


def _describe(exc: ValidationError) -> str:
    """The first problem, e.g. ``path_params: expected an object, got int``."""
    error = exc.errors()[0]
    loc = error["loc"]
    on_key = "[key]" in loc
    parts = [p for p in loc if p not in _TAGS]  # a key spelled like a tag is left out of the location (cosmetic)
    where = "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p)) for i, p in enumerate(parts))
    kind = error["type"]
    if kind == "missing":
        text = f"{where}: missing"
    elif kind == "extra_forbidden":
        text = f"unexpected key {where!r}"
    elif on_key:
        text = f"{where}: a key that is not a string"
    else:
        got = _type_name(error.get("input"))
        if kind == "dict_type":
            expected = "an object"
        elif len(parts) == 1 and parts[0] in ("url", "method", "sent_url", "sent_method"):
            expected = "a string"
        elif parts and parts[0] in ("headers", "path_params"):
            expected = "a string, number, boolean or null"
        else:
            expected = "a JSON value"
        text = f"{where}: expected {expected}, got {got}"
    return one_line(text, MAX_PROBLEM)


def _type_name(value: Any) -> str:
    return "null" if value is None else type(value).__name__
