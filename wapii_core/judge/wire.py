"""The ``wire`` comparison mode: judge what the request would actually carry, whatever the library.

The reference mode (metrics.md) compares the values a program *wrote* with Python's ``==``, so a
generated ``1`` equals an expected ``true`` and a query value the code wrote as the number ``50``
equals ``50`` while the string ``'50'`` does not. Libraries differ in how they put those values on
the wire, so ``wire`` mode turns both the expected and the captured request into what goes on the
wire and compares that, with the judging rules of metrics.md §4-6 otherwise unchanged:

- **query values** are compared as the strings sent: the captured request's ``sent_params`` when
  the adapter captured them on the wire (Python adapters), else its values written the way axios
  sends them; the expected value as JSON writes it (``true``/``false``, numbers as JavaScript prints
  them: ``1.0`` → ``1``). A list is the list of its items' strings; a ``None`` is not sent;
- **form and multipart fields** likewise, as strings; **JSON bodies** by JSON value (``true`` is not
  ``1``, ``1.0`` is ``1``, key order does not matter);
- a body sent in **another encoding** than the expected one (a form where JSON is expected, JSON
  where multipart is expected) carries none of its values correctly: each such field that the
  expected body names is ``incorrect_value``. The encodings are read from the ``Content-Type``
  headers (none: JSON, as axios sends an object);
- **header names** match regardless of case (HTTP does not distinguish them); values as strings;
- **methods** as sent: a captured ``sent_method`` that is not upper-case (fetch sends ``patch`` as
  written, and a server does not read it as ``PATCH``) is no method of the spec;
- **URLs** match the spec's path templates literally (the ``strict`` matching of
  :mod:`wapii_core.openapi.index`): ``/chat_postMessage`` is not Slack's ``/chat.postMessage`` on the wire.

The stored result keeps the adapter's neutral request; only the verdicts come from the wire view.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from typing import Any

from wapii_core.judge.compare import judge
from wapii_core.base.media import form_kind, header_value
from wapii_core.base.model import SPECIAL_HEADERS, Sample, SampleResult
from wapii_core.openapi.index import SpecIndex

MODE = "wire"
CANONICAL_HEADERS = (*SPECIAL_HEADERS, "Authorization")
"""Spellings a captured header is renamed to when the expected config does not spell it."""


def js_number(value: int | float) -> str:
    """A number as JavaScript's ``String(n)`` prints it (ECMAScript Number::toString)."""
    if isinstance(value, int) and abs(value) < 10**21:
        return str(value)
    try:
        value = float(value)
    except OverflowError:  # an integer beyond any double: JavaScript reads it as an infinity
        value = math.inf if value > 0 else -math.inf
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    _, digits_tuple, exponent = Decimal(repr(abs(value))).normalize().as_tuple()
    digits = "".join(map(str, digits_tuple))
    k, n = len(digits), len(digits) + int(exponent)  # value = 0.digits × 10^n
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * (-n) + digits
    else:
        mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
        text = f"{mantissa}e{'+' if n - 1 > 0 else '-'}{abs(n - 1)}"
    return sign + text


def canonical_json(value: Any) -> str:
    """A JSON value's text with object keys sorted and numbers as JavaScript prints them."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return js_number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(canonical_json(item) for item in value) + "]"
    if isinstance(value, dict):
        items = sorted((str(k), v) for k, v in value.items())
        return "{" + ",".join(f"{json.dumps(k, ensure_ascii=False)}:{canonical_json(v)}" for k, v in items) + "}"
    return json.dumps(str(value), ensure_ascii=False)


def wire_text(value: Any) -> str:
    """A scalar as a query string or form field carries it (JSON's words for booleans and null: ``null`` → empty)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return js_number(value)
    return canonical_json(value)


def _field_text(value: Any) -> Any:
    """A query value or form field: a string, or a list of strings."""
    if isinstance(value, (list, tuple)):
        return [wire_text(item) for item in value if item is not None]
    return wire_text(value)


def body_kind(headers: Any) -> str:
    """``multipart``, ``form`` or ``json`` (the default, as axios sends an object), from ``Content-Type``."""
    return form_kind(str(header_value(headers, "Content-Type") or "")) or "json"


def _data_view(data: Any, kind: str) -> Any:
    if not isinstance(data, dict):
        return data
    if kind == "json":
        return {key: ("json", canonical_json(value)) for key, value in data.items()}
    return {key: (kind, _as_tuple(_field_text(value))) for key, value in data.items()}


def _as_tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _params_view(params: Any) -> Any:
    if not isinstance(params, dict):
        return params
    return {key: _field_text(value) for key, value in params.items() if value is not None}


def _header_names(headers: Any, spellings: list[str]) -> Any:
    if not isinstance(headers, dict):
        return headers
    by_lower = {name.lower(): name for name in [*CANONICAL_HEADERS, *spellings]}
    return {by_lower.get(name.lower(), name): wire_text(value) for name, value in headers.items()}


def wire_view(config: dict[str, Any], spellings: list[str] | None = None) -> dict[str, Any]:
    """``config`` as it goes on the wire: the URL as its path was sent (``sent_url`` when present: an
    encoded ``/``, ``?`` or ``#`` is not the character itself), header values and query values as
    strings (``sent_params`` when present), body fields as ``(encoding, text)`` pairs; header names respelled as ``spellings``
    (then ``Accept``, ``Content-Type``, ``Authorization``) where they differ only in case."""
    view = {key: value for key, value in config.items() if key not in ("sent_params", "sent_url", "sent_method")}
    if "sent_url" in config:
        view["url"] = config["sent_url"]
    sent_method = config.get("sent_method")
    if isinstance(sent_method, str) and sent_method != sent_method.upper():
        view["method"] = f"{sent_method!r} as sent"  # methods are case-sensitive: `patch` is not PATCH
    if "headers" in config:
        view["headers"] = _header_names(config["headers"], spellings or [])
    if "params" in config or "sent_params" in config:
        view["params"] = _params_view(config.get("sent_params", config.get("params")))
    if "data" in config:
        view["data"] = _data_view(config["data"], body_kind(config.get("headers")))
    return view


def _align_lists(expected: dict[str, Any], actual: dict[str, Any]) -> None:
    """A single sent value of a parameter that the expected config lists is a list of one."""
    wanted, sent = expected.get("params"), actual.get("params")
    if isinstance(wanted, dict) and isinstance(sent, dict):
        for key, value in sent.items():
            if isinstance(wanted.get(key), list) and isinstance(value, str):
                sent[key] = [value]


def judge_wire(
    sample: Sample,
    spec: SpecIndex,
    request: dict[str, Any] | None,
    error: str | None = None,
    *,
    call: str | None = None,
    error_detail: str | None = None,
    draw: int = 0,
) -> SampleResult:
    """Judge one captured request in wire mode; same arguments as :func:`wapii_core.judge.compare.judge`."""
    expected = wire_view(sample.config)
    if request is None:
        result = judge(sample, spec, None, error, call=call, error_detail=error_detail, draw=draw, strict=True)
    else:
        expected_headers = sample.config.get("headers")
        actual = wire_view(request, list(expected_headers) if isinstance(expected_headers, dict) else [])
        _align_lists(expected, actual)
        result = judge(sample.model_copy(update={"config": expected}), spec, actual, error, call=call,
                       error_detail=error_detail, draw=draw, strict=True)
        result.request = request
    result.mode = MODE
    return result
