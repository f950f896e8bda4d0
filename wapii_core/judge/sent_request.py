"""From a request as it went on the wire to the neutral request config that is judged: one normaliser
for every adapter that captures what its library sent (``fetch_js``, the Python adapters, any new one).

Input: a :class:`~wapii_core.sandbox.wire_capture.WireRequest`, what an HTTP/1.1 request holds: the
method as on the request line, the absolute URL (``https://host/path?query``, without fragment), the
header list in the order and spelling sent, the body's bytes. Two things come from the adapter, as
they depend on the library: which headers are the library's own (``own_header(name, value)``: its
defaults with their default values, headers it derives itself) and, for reference mode, the typed
query values the code wrote (``hints``), each put back only where the library writes it as exactly
the text sent.

Output (the shape :mod:`.request_schema` states):

- ``url``: scheme, host and percent-decoded path, without the query (metrics.md §3); ``sent_url``:
  the same with ``%2F``, ``%3F`` and ``%23`` kept, for wire mode (a server reads ``a%2Fb`` as one
  path segment); ``method``: lower case; ``sent_method``: the method as sent when it is not upper
  case (``patch`` is not ``PATCH`` to a server: wire mode judges it so);
- ``headers``: those the code set. Dropped: the body's framing (``Content-Length``,
  ``Transfer-Encoding``), a ``Host`` naming the URL's authority, and what ``own_header`` calls the
  library's. A ``Host`` naming another authority is the code's own (the server routes by it). A
  name repeated (in any case) is one header, spelled as first sent, its values joined with ``", "``
  in order: RFC 9110 §5.3's combination, what a server reads and what the libraries themselves do
  when code adds a header twice (fetch's ``Headers``, requests' and httpx's case-insensitive dicts).
  ``Content-Type`` is kept (it says how the body the code chose was encoded), a multipart one
  without its boundary;
- ``params``: the query, decoded (a key without ``=`` is ``True``), a typed hint in place of the
  text sent where ``sends_as(hint, sent)`` holds, as ``written_value(hint)``; ``sent_params``: the
  query exactly as sent (strings, a repeated key as a list), for wire mode;
- ``data``: the body decoded by its first ``Content-Type`` (:func:`.wire_bodies.decode_body`),
  absent without a body.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping
from urllib.parse import unquote, urlsplit, urlunsplit

from wapii_core.judge.wire import wire_text
from wapii_core.judge.wire_bodies import MULTIPART_TYPE, decode_body, media_type, parse_query
from wapii_core.sandbox.wire_capture import WireRequest

FRAMING = ("content-length", "transfer-encoding")
"""Headers that frame the body: the connection writes them from the body, never the code."""
DELIMITER_ESCAPES = re.compile(r"(%2[fF]|%3[fF]|%23)")
"""Escapes a server does not read as the character itself: ``/`` splits the path, ``?`` and ``#`` end it."""

OwnHeader = Callable[[str, str], bool]
"""``own_header(name, value)``: whether a sent header is the library's rather than the code's."""
SendsAs = Callable[[Any, Any], bool]
"""``sends_as(hint, sent)``: whether the library writes the typed query value ``hint`` as ``sent`` (a
string, or a list of strings for a repeated key)."""


def _never(_name: str, _value: str) -> bool:
    return False


def sends_as_text(hint: Any, sent: Any) -> bool:
    """The default :data:`SendsAs`: a scalar written as JSON's text of it (``true``, ``50``, ``2.5``)."""
    return isinstance(sent, str) and not isinstance(hint, (list, dict)) and wire_text(hint) == sent


def _as_hinted(value: Any) -> Any:
    return value


def authority(netloc: str, scheme: str) -> str:
    """A URL's host and port as a Host header names them: lower case, without the scheme's default port."""
    netloc = netloc.rpartition("@")[2].lower()
    default = {"https": ":443", "http": ":80"}.get(scheme.lower())
    return netloc[: -len(default)] if default and netloc.endswith(default) else netloc


def unquote_keeping_delimiters(url: str) -> str:
    """``url`` percent-decoded except for :data:`DELIMITER_ESCAPES` (wire mode's view of the path)."""
    return "".join(part if DELIMITER_ESCAPES.fullmatch(part) else unquote(part)
                   for part in DELIMITER_ESCAPES.split(url))


def code_headers(headers: list[tuple[str, str]], url: str, own_header: OwnHeader = _never) -> dict[str, str]:
    """The headers the code set (see the module docstring), a repeated name once; linear in the
    number of headers (a request may carry hundreds of thousands)."""
    parts = urlsplit(url)
    host = authority(parts.netloc, parts.scheme)
    values: dict[str, list[str]] = {}
    spelling: dict[str, str] = {}
    for name, value in headers:
        lowered = name.lower()
        if lowered in FRAMING:
            continue
        if lowered == "host":
            if authority(value.strip(), parts.scheme) == host:
                continue
        elif own_header(name, value):
            continue
        if lowered == "content-type" and media_type(value) == MULTIPART_TYPE:
            value = MULTIPART_TYPE
        values.setdefault(spelling.setdefault(lowered, name), []).append(value)
    return {name: ", ".join(sent) for name, sent in values.items()}


def _params(query: str, hints: Mapping[str, Any], sends_as: SendsAs, written_value: Callable[[Any], Any]) -> dict[str, Any]:
    params = parse_query(query, bare=True)
    sent = parse_query(query)
    for key, hint in hints.items():
        if key in params and sends_as(hint, sent[key]):
            params[key] = written_value(hint)
    return params


def normalise_wire_request(request: WireRequest, *, own_header: OwnHeader = _never,
                           hints: Mapping[str, Any] | None = None, sends_as: SendsAs = sends_as_text,
                           written_value: Callable[[Any], Any] = _as_hinted) -> dict[str, Any]:
    """The neutral config ``{url, sent_url, method, sent_method?, headers, params?, sent_params?, data?}``
    of a request as sent (see the module docstring for each field and for the arguments)."""
    if not isinstance(request.target, str) or not isinstance(request.method, str):
        raise TypeError("a request as sent has a string method and URL")
    parts = urlsplit(request.target)
    base = urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
    config: dict[str, Any] = {
        "url": unquote(base),
        "sent_url": unquote_keeping_delimiters(base),
        "method": request.method.lower(),
        "headers": code_headers(request.headers, request.target, own_header),
    }
    if request.method != request.method.upper():
        config["sent_method"] = request.method  # as on the request line: a server does not read it as upper case
    if parts.query:
        config["params"] = _params(parts.query, hints or {}, sends_as, written_value)
        config["sent_params"] = parse_query(parts.query)
    content_type = next((value for name, value in request.headers if name.lower() == "content-type"), None)
    data = decode_body(request.body, content_type)
    if data is not None:
        config["data"] = data
    return config
