"""Content types and header lookup: the one place that reads a ``Content-Type`` or finds a header.

:func:`media_type` parses a ``Content-Type`` value with Werkzeug's ``parse_options_header`` (the
type before the parameters, lower-cased); :func:`is_json` is what wapii calls a JSON media type:
``application/json`` and every structured-syntax ``+json`` type (RFC 6839); :func:`form_kind` tells
the two form encodings. :func:`header_value`
finds a header in a mapping whatever the case of its name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

JSON_TYPE = "application/json"
FORM_TYPE = "application/x-www-form-urlencoded"
MULTIPART_TYPE = "multipart/form-data"


def media_type(content_type: Any) -> str:
    """The lower-case media type without parameters (``multipart/form-data; boundary=x`` →
    ``multipart/form-data``; None → ``""``); a value that is not a string is read as its text."""
    from werkzeug.http import parse_options_header

    if content_type is None:
        return ""
    return parse_options_header(str(content_type))[0].lower()


def is_json(content_type: Any) -> bool:
    """Whether a ``Content-Type`` (or a bare media type) says JSON: ``application/json`` or ``*/*+json``."""
    media = media_type(content_type)
    return media == JSON_TYPE or media.endswith("+json")


def form_kind(content_type: Any) -> str | None:
    """``multipart`` for ``multipart/form-data``, ``form`` for ``application/x-www-form-urlencoded``, else None."""
    return _FORM_KINDS.get(media_type(content_type))


_FORM_KINDS = {MULTIPART_TYPE: "multipart", FORM_TYPE: "form"}


def header_value(headers: Any, name: str, *, last: bool = False, default: Any = None) -> Any:
    """The value of header ``name`` in ``headers`` (a mapping; anything else has none), its name
    matched case-insensitively: the first such header, or the last with ``last``; ``default`` when absent."""
    if not isinstance(headers, Mapping):
        return default
    wanted = name.lower()
    found = default
    for key, value in headers.items():
        if isinstance(key, str) and key.lower() == wanted:
            if not last:
                return value
            found = value
    return found
