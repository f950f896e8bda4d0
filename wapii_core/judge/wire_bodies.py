"""Decoding a body as sent by its content type, and query strings, into the neutral request's values.

Shared by every adapter that captures requests as sent (``fetch_js``, and the Python adapters
through :mod:`wapii_core.pyhttp`).

JSON bodies become typed values; ``x-www-form-urlencoded`` bodies and query strings become strings
(a repeated key becomes a list of strings); ``multipart/form-data`` bodies become one string per
named part (a file part's content as text), read by Werkzeug's multipart parser as a server reads
them (a ``Content-Transfer-Encoding`` is not applied: RFC 7578 §4.7); any other body (or one that
does not decode as its content type says) is kept as its text, or as ``base64:<data>`` when it is not
UTF-8. So is a JSON body that the judge could not compare or the results could not hold: one nested
more than :data:`MAX_DEPTH` levels, or one that escapes a lone surrogate (``"\ud800"``, no UTF-8
text), and a multipart body over a server's limits (:data:`MAX_PARTS`, :data:`MAX_PART_HEADERS`),
which are what keeps the judge's time on one body bounded: the body comes from the program.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any
from urllib.parse import unquote_plus

from wapii_core.base.jsonwalk import unstorable
from wapii_core.base.media import FORM_TYPE, MULTIPART_TYPE, is_json, media_type

MAX_DEPTH = 64
"""Lists and objects a decoded JSON body may nest (an API's bodies need a handful)."""
MAX_PARTS = 1000
"""Parts a multipart body may have to be decoded (Werkzeug's default ``max_form_parts``): parsing a part
costs the judge far more than its bytes cost the program."""
MAX_PART_HEADERS = 128 << 10
"""Bytes the header blocks of a multipart body's parts may hold together to be decoded (128 per part of
:data:`MAX_PARTS` parts; parameters of a ``Content-Disposition`` cost the parser more than linear time)."""


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


def _part_headers_over_budget(data: bytes, delimiter: bytes) -> bool:
    """Whether the parts' header blocks (from each delimiter to the blank line after it) hold more than
    :data:`MAX_PART_HEADERS` bytes, or there are more than :data:`MAX_PARTS` parts."""
    total, parts, at = 0, 0, data.find(delimiter)
    while at != -1:
        end = data.find(b"\r\n\r\n", at)
        if end == -1:
            return False
        parts += 1
        total += end - at - len(delimiter)
        if total > MAX_PART_HEADERS or parts > MAX_PARTS:
            return True
        at = data.find(delimiter, end)
    return False


def _multipart_fields(data: bytes, content_type: str) -> dict[str, Any] | None:
    """The named parts of a multipart body in order (a repeated name's values as a list), or None when
    it is not one, or is over a server's limits."""
    from werkzeug.exceptions import RequestEntityTooLarge
    from werkzeug.http import parse_options_header
    from werkzeug.sansio.multipart import Data, Epilogue, Field, File, MultipartDecoder, NeedData

    boundary = parse_options_header(content_type)[1].get("boundary")
    if not boundary:
        return None
    raw_boundary = boundary.encode("latin-1", errors="replace")
    if _part_headers_over_budget(data, b"--" + raw_boundary):
        return None
    decoder = MultipartDecoder(raw_boundary, max_form_memory_size=None, max_parts=MAX_PARTS)
    decoder.receive_data(data)
    decoder.receive_data(None)
    fields: dict[str, Any] = {}
    name: str | None = None
    chunks: list[bytes] = []
    try:
        while True:
            event = decoder.next_event()
            if isinstance(event, (Field, File)):
                name, chunks = event.name, []
            elif isinstance(event, Data):
                chunks.append(event.data)
                if not event.more_data and name is not None:
                    _add(fields, str(name), _as_text(b"".join(chunks)))
            elif isinstance(event, Epilogue):
                return fields
            elif isinstance(event, NeedData):
                return None  # the body ends inside a part
    except RequestEntityTooLarge:
        return None


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
        if is_json(media):
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
