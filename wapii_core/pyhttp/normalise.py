"""From a captured request record (:mod:`.recording`) to the neutral request config that is judged.

The record is what the Python library handed its transport, parsed back from the wire; the core's
:func:`wapii_core.judge.sent_request.normalise_wire_request` makes the config (every field is stated
there), told by the library's :class:`PythonLibrary` which headers are its own
(:meth:`PythonLibrary.is_own_header`: its defaults with their default values) and how it writes the
typed query values the code passed in ``params=``: such a value keeps the JSON value it was written
with (``50``, ``True``: the reference's axios config kept them so too) where the library writes it
as exactly what was sent; one written into the URL's query string is a string (as in the reference).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from wapii_core.judge.sent_request import normalise_wire_request
from wapii_core.judge.wire_bodies import parse_query, raw_bytes
from wapii_core.pyhttp.library import PythonLibrary
from wapii_core.sandbox.wire_capture import WireRequest


def _hints(passed: dict[str, Any]) -> dict[str, Any]:
    """The typed values the code passed in ``params=``, but for keys its URL's own query string also
    holds (those were written as text) and ``None`` (the library leaves the key out)."""
    typed = passed.get("params") or {}
    passed_url = passed.get("url")
    in_url = parse_query(urlsplit(passed_url).query) if isinstance(passed_url, str) else {}
    return {key: value for key, value in typed.items() if key not in in_url and value is not None}


def normalise_python_request(record: dict[str, Any], library: PythonLibrary) -> dict[str, Any]:
    """The neutral config ``{url, sent_url, method, headers, params?, sent_params?, data?}`` of a captured request."""
    if not isinstance(record, dict) or not isinstance(record.get("url"), str):
        raise TypeError("a captured request is a JSON object with a string 'url'")
    sent = WireRequest(str(record.get("method", "")), record["url"],
                       [(name, value) for name, value in record.get("headers") or []], raw_bytes(record.get("body")))
    return normalise_wire_request(sent, own_header=library.is_own_header, hints=_hints(record.get("passed") or {}),
                                  sends_as=library.sends_as, written_value=library.written_value)
