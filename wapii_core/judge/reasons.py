"""Why each verdict of a judged sample is not ``correct``, one line per field path.

:func:`reasons` tells a judged sample against the request it should have sent (the expected request,
or a correct draw's request standing for it): ``{"params.limit": "sent '50', expected 50",
"url": "URL wrong: sent '...', expected '...'"}``. The run stores these with every result, and
``wapii compare`` joins them to say what one library got wrong where another got it right.
"""

from __future__ import annotations

import json
from typing import Any

from wapii_core.base.model import SampleResult
from wapii_core.base.text import shortened

_ABSENT = object()

_BODY_KINDS = {"json": "JSON", "form": "a form", "multipart": "a multipart form"}


def shown(value: Any, limit: int = 40) -> str:
    """``value`` as a reason quotes it: a string with quotes, anything else as JSON, cut to ``limit``."""
    text = repr(value) if isinstance(value, str) else json.dumps(value, default=str)
    return shortened(text, limit)


def contrast(sent: Any, wanted: Any, limit: int = 40) -> tuple[str, str]:
    """``sent`` and ``wanted`` as :func:`shown` quotes them; when either is cut, both are cut around
    their first difference (``...calendars/12345/acl...``), so that what differs is what is shown."""
    texts = [repr(v) if isinstance(v, str) else json.dumps(v, default=str) for v in (sent, wanted)]
    if all(len(t) <= limit for t in texts) or texts[0] == texts[1]:
        return shown(sent, limit), shown(wanted, limit)
    first = next((i for i, (x, y) in enumerate(zip(*texts)) if x != y), min(map(len, texts)))
    start = max(0, first - limit // 3)
    cut = [("..." if start else "") + t[start:start + limit] + ("..." if start + limit < len(t) else "") for t in texts]
    return cut[0], cut[1]


def _sent(request: dict[str, Any] | None, field: str, name: str, wire: bool = False) -> Any:
    """The value of argument ``name`` of ``field`` in ``request``; in wire mode a query value as the
    string sent (captured on the wire, or written as the query carries it: ``true``, ``20``)."""
    from wapii_core.judge.wire import wire_text

    if wire and field == "params" and isinstance((request or {}).get("sent_params"), dict):
        field = "sent_params"
    values = (request or {}).get(field)
    if field == "data" and not isinstance(values, dict):
        return values
    value = values.get(name, _ABSENT) if isinstance(values, dict) else _ABSENT
    if wire and field == "params" and value is not _ABSENT:
        return [wire_text(v) for v in value] if isinstance(value, list) else wire_text(value)
    return value


def _body_note(request: dict[str, Any], expected: dict[str, Any], wire: bool) -> str | None:
    """How the body of ``request`` is not the kind of ``expected``'s: sent as text (a string the
    library did not encode, e.g. fetch's ``'[object Object]'``), or, in wire mode, in another
    encoding (the ``Content-Type`` decides: a form where a JSON body is expected). None when alike."""
    from wapii_core.judge.wire import body_kind

    data, wanted = request.get("data"), _BODY_KINDS[body_kind(expected.get("headers"))]
    if data is not None and not isinstance(data, dict):
        return f"body sent as text {shown(data)}, expected {wanted}"
    sent = _BODY_KINDS[body_kind(request.get("headers"))]
    if wire and isinstance(data, dict) and sent != wanted:
        return f"body sent as {sent}, expected {wanted}"
    return None


def reasons(result: SampleResult, expected: dict[str, Any] | None,
            expected_endpoint: str | None = None) -> dict[str, str]:
    """``{field path: reason}`` for each verdict of ``result`` that is not ``correct`` (``Accept``
    excepted: it never decides a verdict, metrics.md §1), told against ``expected`` (whose endpoint,
    ``"GET /books"``, is ``expected_endpoint`` when known). Empty for a sample that did not run (its
    ``error`` and ``error_detail`` say why)."""
    return {path: text for path, text, _ in _told(result, expected, expected_endpoint)}


def _endpoint_reason(result: SampleResult, expected_endpoint: str | None) -> str:
    """Why the endpoint (the URL's spec path and the method together) is ``wrong`` or ``illegal``."""
    wanted = f", expected {expected_endpoint}" if expected_endpoint else ""
    if result.url == "illegal":
        return f"endpoint illegal: the URL matches no path of the spec{wanted}"
    method = str((result.request or {}).get("method")).upper()
    path = (result.resolved_endpoint or "").partition(" ")[2] or "the URL's path"
    if result.method == "illegal":
        return f"endpoint illegal: the spec has no {method} operation on {path}{wanted}"
    return f"endpoint {result.endpoint}: resolved to {result.resolved_endpoint or method + ' ' + path}{wanted}"


def _told(result: SampleResult, expected: dict[str, Any] | None,
          expected_endpoint: str | None = None) -> list[tuple[str, str, bool]]:
    """``(field path, reason, whether another reason already says it)`` in report order: URL, method,
    endpoint, then each field's arguments (the body's encoding before the body's fields)."""
    if result.verdict == "nonexecutable":
        return []
    out: list[tuple[str, str, bool]] = []
    request, expected = result.request or {}, expected or {}
    if result.url not in (None, "correct"):
        sent_url, wanted_url = contrast(request.get("url"), expected.get("url"), 60)
        out.append(("url", f"URL {result.url}: sent {sent_url}, expected {wanted_url}", False))
    if result.method not in (None, "correct"):
        out.append(("method", f"method {result.method}: sent {shown(request.get('method'))}, expected "
                              f"{shown(expected.get('method'))}", False))
    if result.endpoint not in (None, "correct"):  # follows from the URL's and the method's verdicts
        out.append(("endpoint", _endpoint_reason(result, expected_endpoint), True))
    wire = result.mode == "wire"
    for field, names in result.arguments.items():
        note = _body_note(request, expected, wire) if field == "data" else None
        if note and any(v in ("incorrect_value", "missing") for v in names.values()):
            out.append(("data", note, False))
        for name, verdict in names.items():
            if verdict == "correct" or (field == "headers" and name == "Accept"):
                continue  # Accept never decides a verdict (metrics.md §1); Content-Type names the body's encoding
            path = f"{field}.{name}"
            sent, wanted = _sent(request, field, name, wire), _sent(expected, field, name, wire)
            if verdict == "missing":
                text = f"{path} missing (expected {shown(wanted)})" if wanted is not _ABSENT else f"{path} missing"
            elif verdict == "incorrect_value" and note and sent == wanted:  # the value is right, its encoding is not
                out.append((path, f"{path}: value right, body {note}", True))
                continue
            elif verdict == "incorrect_value" and sent is not _ABSENT and wanted is not _ABSENT:
                told_sent, told_wanted = contrast(sent, wanted)
                text = f"{path}: sent {told_sent}, expected {told_wanted}"
            elif verdict == "incorrect_value" and field == "path_params":  # the value is in the URL
                sent_url, wanted_url = contrast(request.get("url"), expected.get("url"), 60)
                text = f"{path} wrong: sent {sent_url}, expected {wanted_url}"
            elif verdict in ("illegal", "unnecessary"):
                value = f"sent {shown(sent)}, " if sent is not _ABSENT else ""
                why = ("not an argument of the expected endpoint" if verdict == "illegal" else
                       "an argument of the expected endpoint that the task does not ask for")
                text = f"{path} {verdict}: {value}{why}"
            else:
                text = f"{path} {verdict.replace('_', ' ')}"
            out.append((path, text, False))
    return out


def why_not(failed: SampleResult, solved: SampleResult) -> str:
    """What ``failed`` (a draw of the library that did not solve the task) got wrong, told against
    ``solved`` (a correct draw of another library): ``params.available: sent 'True', expected 'true'``.

    A correct request matches the expected one, so its values stand for the expected values."""
    if failed.verdict == "nonexecutable":
        detail = f" ({failed.error_detail})" if failed.error_detail else ""
        return f"did not run: {failed.error}{detail}"
    parts = [text for _, text, said in _told(failed, solved.request) if not said]
    return "; ".join(parts) or f"judged {failed.verdict}"
