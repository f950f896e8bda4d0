"""Decoding a body as sent by its content type, and query strings, into the neutral request's values.

Shared by every adapter that captures requests as sent (``fetch_js``, and the Python adapters
through :mod:`wapii_core.pyhttp`).

JSON bodies become typed values; ``x-www-form-urlencoded`` bodies and query strings become strings
(a repeated key becomes a list of strings); ``multipart/form-data`` bodies become one string per
part (a file part's content as text); any other body (or one that does not decode as its content
type says) is kept as its text, or as ``base64:<data>`` when it is not UTF-8. So is a JSON body
that the judge could not compare or the results could not hold: one nested more than
:data:`MAX_DEPTH` levels, or one that escapes a lone surrogate (``"\ud800"``, no UTF-8 text).
"""

from __future__ import annotations

import base64
import binascii
import email.parser
import email.policy
import json
from typing import Any
from urllib.parse import unquote_plus

from wapii_core.base.jsonwalk import unstorable

JSON_TYPES = ("application/json",)
FORM_TYPE = "application/x-www-form-urlencoded"
MULTIPART_TYPE = "multipart/form-data"
MAX_DEPTH = 64
"""Lists and objects a decoded JSON body may nest (an API's bodies need a handful)."""


def media_type(content_type: str | None) -> str:
    """The lower-case media type without parameters (``multipart/form-data; boundary=x`` → ``multipart/form-data``)."""
    return (content_type or "").split(";", 1)[0].strip().lower()


def is_json(content_type: str | None) -> bool:
    media = media_type(content_type)
    return media in JSON_TYPES or media.endswith("+json")


def _add(out: dict[str, Any], key: str, value: Any) -> None:
    """Adds ``value`` under ``key``; a repeated key's values become a list, grown in place (a query
    may repeat a key hundreds of thousands of times)."""
    if key not in out:
        out[key] = value
    elif isinstance(out[key], list):
        out[key].append(value)
    else:
        out[key] = [out[key], value]


def parse_query(query: str, bare: Any = "") -> dict[str, Any]:
    """``a=1&b=x&b=y`` → ``{"a": "1", "b": ["x", "y"]}`` (``+`` and ``%XX`` decoded); a key without
    ``=`` gets ``bare``."""
    out: dict[str, Any] = {}
    for pair in query.split("&"):
        if not pair:
            continue
        key, eq, value = pair.partition("=")
        _add(out, unquote_plus(key), unquote_plus(value) if eq else bare)
    return out


def _as_text(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return "base64:" + base64.b64encode(data).decode("ascii")


def _multipart_fields(data: bytes, content_type: str) -> dict[str, Any] | None:
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode("latin-1", errors="replace")
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + data)
    if not message.is_multipart():
        return None
    fields: dict[str, Any] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if name is None:
            continue
        payload = part.get_payload(decode=True) or b""
        _add(fields, str(name), _as_text(payload))
    return fields


def raw_bytes(body: dict[str, str] | None) -> bytes:
    """The bytes of a body recorded as ``{"text": …}`` or ``{"base64": …}`` (nothing: no bytes)."""
    if not body:
        return b""
    if "text" in body:
        return body["text"].encode("utf-8")
    return base64.b64decode(body.get("base64", ""))


def decode_body(data: bytes, content_type: str | None) -> Any:
    """The neutral ``data`` of a body as sent, or None when it is empty."""
    if not data:
        return None
    media = media_type(content_type)
    try:
        if is_json(content_type):
            value = json.loads(data.decode("utf-8"))
            if unstorable(value, MAX_DEPTH) is None:
                return value
        elif media == FORM_TYPE:
            return parse_query(data.decode("utf-8"))
        elif media == MULTIPART_TYPE and content_type:
            fields = _multipart_fields(data, content_type)
            if fields is not None:
                return fields
    except (ValueError, UnicodeDecodeError, binascii.Error, RecursionError):
        pass  # not what the content type says (or nested past the parsers' recursion): kept as it is
    return _as_text(data)
