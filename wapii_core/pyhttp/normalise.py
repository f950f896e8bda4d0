"""From a captured request record (:mod:`.recording`) to the neutral request config that is judged.

- ``url``: scheme, host and percent-decoded path, without the query (the paper's rule);
  ``sent_url``: the same with ``%2F``, ``%3F`` and ``%23`` kept, for wire mode, since a server
  reads ``a%2Fb`` as one path segment; ``method``: lower case;
- ``headers``: those the code set, in the spelling sent; the library's own (its defaults with their
  default values, ``Content-Length``, ``Host`` naming the URL's authority, …:
  :meth:`PythonLibrary.is_own_header`) are dropped.
  ``Content-Type`` is kept: it says how the body the code chose was encoded (a multipart boundary
  is dropped from it);
- ``params``: the query, decoded; a parameter the code passed in ``params=`` keeps the JSON value it
  was written with (``50``, ``True``: the reference's axios config kept them so too), one written into
  the URL's query string is a string (as in the reference), a key without ``=`` is ``True``;
- ``sent_params``: the query exactly as sent (strings, a repeated key as a list), for wire mode;
- ``data``: the body decoded by its content type (:func:`wapii_core.judge.wire_bodies.decode_body`), absent without one.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from wapii_core.judge.wire_bodies import MULTIPART_TYPE, decode_body, media_type, parse_query, raw_bytes
from wapii_core.pyhttp.library import PythonLibrary


def _authority(netloc: str, scheme: str) -> str:
    """A URL's host and port as a Host header names them: lower case, without the scheme's default port."""
    netloc = netloc.rpartition("@")[2].lower()
    default = {"https": ":443", "http": ":80"}.get(scheme.lower())
    return netloc[: -len(default)] if default and netloc.endswith(default) else netloc


def _headers(record: dict[str, Any], library: PythonLibrary) -> dict[str, str]:
    """The code's headers, a repeated name (in any case) once, spelled as first sent, its values joined
    with ``", "`` (linear in the number of headers: a request may carry hundreds of thousands). A
    ``Host`` header that names another authority than the URL's is the code's own: the server routes
    the request by it."""
    parts = urlsplit(record["url"])
    authority = _authority(parts.netloc, parts.scheme)
    values: dict[str, list[str]] = {}
    spelling: dict[str, str] = {}
    for name, value in record.get("headers") or []:
        foreign_host = name.lower() == "host" and _authority(value.strip(), parts.scheme) != authority
        if library.is_own_header(name, value) and not foreign_host:
            continue
        if name.lower() == "content-type" and media_type(value) == MULTIPART_TYPE:
            value = MULTIPART_TYPE
        values.setdefault(spelling.setdefault(name.lower(), name), []).append(value)
    return {name: ", ".join(parts) for name, parts in values.items()}


def _content_type(record: dict[str, Any]) -> str | None:
    for name, value in record.get("headers") or []:
        if name.lower() == "content-type":
            return value
    return None


def _params(query: str, passed: dict[str, Any], library: PythonLibrary) -> dict[str, Any]:
    """The query with the typed values the code passed in ``params=`` put back in, each only where
    the library writes it as exactly what was sent (the hint comes from the snippet's source: it may
    choose between ``50`` and ``"50"``, never change a byte that was sent), read as the library's
    :meth:`~wapii_core.pyhttp.library.PythonLibrary.written_value` says."""
    params = parse_query(query, bare=True)
    sent = parse_query(query)
    typed = passed.get("params") or {}
    passed_url = passed.get("url")
    in_url = parse_query(urlsplit(passed_url).query) if isinstance(passed_url, str) else {}
    for key, value in typed.items():
        if key in params and key not in in_url and value is not None and library.sends_as(value, sent[key]):
            params[key] = library.written_value(value)
    return params


DELIMITER_ESCAPES = re.compile(r"(%2[fF]|%3[fF]|%23)")
"""Escapes a server does not read as the character itself: ``/`` splits the path, ``?`` and ``#`` end it."""


def _unquote_keeping_delimiters(url: str) -> str:
    """``url`` percent-decoded except for :data:`DELIMITER_ESCAPES` (wire mode's view of the path)."""
    return "".join(part if DELIMITER_ESCAPES.fullmatch(part) else unquote(part)
                   for part in DELIMITER_ESCAPES.split(url))


def normalise_python_request(record: dict[str, Any], library: PythonLibrary) -> dict[str, Any]:
    """The neutral config ``{url, method, headers, params?, sent_params?, data?}`` of a captured request."""
    if not isinstance(record, dict) or not isinstance(record.get("url"), str):
        raise TypeError("a captured request is a JSON object with a string 'url'")
    parts = urlsplit(record["url"])
    config: dict[str, Any] = {
        "url": unquote(urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))),
        "sent_url": _unquote_keeping_delimiters(urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))),
        "method": str(record.get("method", "")).lower(),
        "headers": _headers(record, library),
    }
    if parts.query:
        config["params"] = _params(parts.query, record.get("passed") or {}, library)
        config["sent_params"] = parse_query(parts.query)
    data = decode_body(raw_bytes(record.get("body")), _content_type(record))
    if data is not None:
        config["data"] = data
    return config
