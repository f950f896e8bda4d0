"""From what fetch sent (:class:`.runtime.FetchRecord`) to the neutral request config that is judged.

The record is the request as fetch put it on the wire; the core's wire normaliser
(``wapii_core.kits.wire.normalise_wire_request``) makes the config, each field as stated there. What is
fetch's own:

- the headers fetch adds (:data:`DEFAULTS` with their default values, ``connection``) are dropped;
  a ``content-type`` that fetch set for the body is kept, as it says how the body was sent
  (``text/plain;charset=UTF-8`` for a string, e.g. a JSON text sent without a ``Content-Type``),
  spelled ``Content-Type`` (the spelling is fetch's, not the code's);
- a value the run passed to ``URLSearchParams`` as a number or a boolean (``hints``) keeps that
  type in ``params`` where it is exactly what was sent, as the reference kept the values of axios's
  ``params``;
- the method is upper-cased by fetch for the six methods it normalises only (``patch`` stays
  ``patch``: ``sent_method``).
"""

from __future__ import annotations

import re
from typing import Any

from wapii_core.kits.wire import WireRequest, normalise_wire_request

DEFAULTS = {"accept": "*/*", "accept-language": "*", "sec-fetch-mode": "cors", "user-agent": "node",
            "accept-encoding": "gzip, deflate"}
"""The headers Node's fetch adds when the code set none of that name, with their values."""
OWN_BODY_TYPES = re.compile(r"text/plain;charset=UTF-8|application/x-www-form-urlencoded;charset=UTF-8"
                            r"|multipart/form-data; boundary=----formdata-undici-0\d{11}")
"""The ``content-type`` values fetch writes itself (lower-case name) for a string, a URLSearchParams
and a FormData body."""


def own_header(name: str, value: str) -> bool:
    """Whether a header fetch sent is its own: a default with its default value, or ``connection``."""
    lowered = name.lower()
    return lowered == "connection" or DEFAULTS.get(lowered) == value


def _spelled(name: str, value: str) -> str:
    return "Content-Type" if name == "content-type" and OWN_BODY_TYPES.fullmatch(value) else name


def normalise_record(record: dict[str, Any]) -> dict[str, Any]:
    """The neutral config ``{url, sent_url, method, sent_method?, headers, params?, sent_params?, data?}`` of a record."""
    if not isinstance(record, dict) or not isinstance(record.get("url"), str):
        raise TypeError("a captured fetch request is a JSON object with a string 'url'")
    body = record.get("body")
    sent = WireRequest(str(record.get("method", "")), record["url"],
                       [(_spelled(name, value), value) for name, value in record.get("headers") or []],
                       b"" if body is None else body.encode("latin-1"))
    return normalise_wire_request(sent, own_header=own_header, hints=record.get("hints") or {})
