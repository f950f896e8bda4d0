"""From what fetch sent (:class:`.runtime.FetchRecord`) to the neutral request config that is judged.

- ``url``: scheme, host and percent-decoded path, without the query (metrics.md §3); ``sent_url``:
  the same with ``%2F``, ``%3F`` and ``%23`` kept, for wire mode (a server reads ``a%2Fb`` as one
  path segment); ``method``: lower case; ``sent_method``: the method as sent when fetch did not upper-case it
  (``patch`` stays ``patch``, which a server does not read as ``PATCH``: wire mode judges it so);
- ``headers``: those the code set, in the spelling sent; fetch's own (:data:`DEFAULTS` with their
  default values, ``content-length``) are dropped; a ``content-type`` that fetch set for the body
  is kept, as it says how the body was sent (``text/plain;charset=UTF-8`` for a string, e.g. a JSON
  text sent without a ``Content-Type``), spelled ``Content-Type`` (the spelling is fetch's, not the
  code's), a multipart one without its boundary;
- ``params``: the query, decoded (a key without ``=`` is ``True``); a value the run passed to
  ``URLSearchParams`` as a number or a boolean keeps that type where it is exactly what was sent
  (``hints``), as the reference kept the values of axios's ``params``; ``sent_params``: the query
  exactly as sent, for wire mode;
- ``data``: the body decoded by its content type (JSON, form, multipart; else its text).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from wapii_core.api import MULTIPART_TYPE, decode_body, media_type, parse_query, wire_text

DEFAULTS = {"accept": "*/*", "accept-language": "*", "sec-fetch-mode": "cors", "user-agent": "node",
            "accept-encoding": "gzip, deflate"}
"""The headers Node's fetch adds when the code set none of that name, with their values."""
COMPUTED = ("content-length", "host", "connection", "transfer-encoding")
OWN_BODY_TYPES = re.compile(r"text/plain;charset=UTF-8|application/x-www-form-urlencoded;charset=UTF-8"
                            r"|multipart/form-data; boundary=----formdata-undici-0\d{11}")
"""The ``content-type`` values fetch writes itself (lower-case name) for a string, a URLSearchParams
and a FormData body."""

DELIMITER_ESCAPES = re.compile(r"(%2[fF]|%3[fF]|%23)")
"""Escapes a server does not read as the character itself: ``/`` splits the path, ``?`` and ``#`` end it."""


def _headers(pairs: list[list[str]]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for name, value in pairs:
        lowered = name.lower()
        if lowered in COMPUTED or DEFAULTS.get(lowered) == value:
            continue
        if name == "content-type" and OWN_BODY_TYPES.fullmatch(value):
            name = "Content-Type"
        if lowered == "content-type" and media_type(value) == MULTIPART_TYPE:
            value = MULTIPART_TYPE
        headers[name] = value
    return headers


def _params(query: str, hints: dict[str, Any]) -> dict[str, Any]:
    params = parse_query(query, bare=True)
    sent = parse_query(query)
    for key, value in hints.items():
        if key in params and isinstance(sent[key], str) and wire_text(value) == sent[key]:
            params[key] = value
    return params


def _unquote_keeping_delimiters(url: str) -> str:
    return "".join(part if DELIMITER_ESCAPES.fullmatch(part) else unquote(part)
                   for part in DELIMITER_ESCAPES.split(url))


def normalise_record(record: dict[str, Any]) -> dict[str, Any]:
    """The neutral config ``{url, sent_url, method, headers, params?, sent_params?, data?}`` of a record."""
    if not isinstance(record, dict) or not isinstance(record.get("url"), str):
        raise TypeError("a captured fetch request is a JSON object with a string 'url'")
    parts = urlsplit(record["url"])
    base = urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
    config: dict[str, Any] = {
        "url": unquote(base),
        "sent_url": _unquote_keeping_delimiters(base),
        "method": str(record.get("method", "")).lower(),
        "headers": _headers(record.get("headers") or []),
    }
    sent_method = str(record.get("method", ""))
    if sent_method != sent_method.upper():
        config["sent_method"] = sent_method  # as on the request line: wire mode does not read it as upper case
    if parts.query:
        config["params"] = _params(parts.query, record.get("hints") or {})
        config["sent_params"] = parse_query(parts.query)
    body = record.get("body")
    if body is not None:
        content_type = next((value for name, value in record.get("headers") or [] if name.lower() == "content-type"), None)
        data = decode_body(body.encode("latin-1"), content_type)
        if data is not None:
            config["data"] = data
    return config
