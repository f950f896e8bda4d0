"""From the bytes a snippet sent to the neutral request the judging reads.

:func:`to_capture` turns the pool's result into a :class:`Capture` holding the first request as
sent (method, URL, headers, body as text); :func:`normalise_record` turns that into the neutral
config (metrics.md §3): the URL without its query, the query and form fields as the strings sent
(``params`` and ``sent_params``, which ``wire`` mode reads), a JSON body decoded, and the headers
the program wrote (not those urllib or the wire framing add: ``Host``, ``Content-Length``,
urllib's own ``User-Agent`` and its default form ``Content-Type`` on a body the program did not type).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from wapii_core.api import Capture, WireError, parse_requests

FRAMING = {"host", "content-length"}
FORM = "application/x-www-form-urlencoded"


def to_capture(result: Any) -> Capture:
    """A :class:`~wapii_core.api.SnippetResult` as a Capture: the first request sent, or why there is none."""
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


def _fields(text: str) -> dict[str, Any]:
    """Query or form fields as sent: a name given twice holds the list of its values."""
    out: dict[str, Any] = {}
    for name, value in parse_qsl(text, keep_blank_values=True):
        if name in out:
            out[name] = [*out[name], value] if isinstance(out[name], list) else [out[name], value]
        else:
            out[name] = value
    return out


def normalise_record(record: dict[str, Any]) -> dict[str, Any]:
    """The neutral config of a captured request (see the module docstring)."""
    parts = urlsplit(record["url"])
    config: dict[str, Any] = {"url": urlunsplit((parts.scheme, parts.netloc, parts.path, "", "")),
                              "method": record["method"].lower()}
    headers = {name: value for name, value in record["headers"] if name.lower() not in FRAMING}
    if headers.get("User-agent", "").startswith("Python-urllib/"):
        del headers["User-agent"]
    body = record["body"]
    content_type = next((v for k, v in headers.items() if k.lower() == "content-type"), "")
    if body and content_type.startswith(FORM):
        config["data"] = _fields(body)
    elif body:
        try:
            config["data"] = json.loads(body)
        except ValueError:
            config["data"] = body
    elif headers.get("Content-type") == FORM:
        del headers["Content-type"]  # urllib's default on an empty body
    if headers:
        config["headers"] = headers
    if parts.query:
        config["params"] = config["sent_params"] = _fields(parts.query)
    return config
