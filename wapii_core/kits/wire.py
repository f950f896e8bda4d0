"""The wire kit: requests as bytes, for adapters judged in wire mode, and the mock's exchanges.

Parsing the HTTP requests a program sent, sending one and getting its responder's answer, the
request as the judge reads it, bodies and media types, and the mock stage's exchange types (what a
responder takes and gives, what the record keeps).

Names are imported on first use (:func:`wapii_core.base.lazy.lazy_exports`): ``from
wapii_core.kits.wire import X`` costs only the modules X needs. :data:`KIT_VERSION` versions this
kit's names the semver way, apart from the plugin API's ``API_VERSION`` (``docs/changelog.md``).
"""

from __future__ import annotations

from wapii_core.base.lazy import lazy_exports

KIT_VERSION = "1.0"
"""This kit's version, ``MAJOR.MINOR``: MINOR grows when names are added, MAJOR when one is
removed or changes incompatibly."""

_WHERE: dict[str, str] = {
    # Requests on the wire.
    "WireRequest": "wapii_core.sandbox.wire_capture",
    "WireError": "wapii_core.sandbox.wire_capture",
    "parse_requests": "wapii_core.sandbox.wire_capture",
    # Judging what was sent, byte for byte.
    "wire_text": "wapii_core.judge.wire",
    "wire_view": "wapii_core.judge.wire",
    "normalise_wire_request": "wapii_core.judge.sent_request",
    "sends_as_text": "wapii_core.judge.sent_request",
    # Bodies and media types.
    "raw_bytes": "wapii_core.judge.wire_bodies",
    "decode_body": "wapii_core.judge.wire_bodies",
    "parse_query": "wapii_core.judge.wire_bodies",
    "body_record": "wapii_core.pyhttp.recording",
    "media_type": "wapii_core.base.media",
    "is_json": "wapii_core.base.media",
    "header_value": "wapii_core.base.media",
    "FORM_TYPE": "wapii_core.base.media",
    "MULTIPART_TYPE": "wapii_core.base.media",
    # The mock stage's exchange types: what a responder takes and gives, and what the record keeps.
    "MockRequest": "wapii_core.mock.exchange",
    "MockResponse": "wapii_core.mock.exchange",
    "Responder": "wapii_core.mock.exchange",
    "EmptyResponder": "wapii_core.mock.exchange",
    "Exchange": "wapii_core.base.model",
}
"""Where each name lives (imported on first use)."""

__all__ = sorted([*_WHERE, "KIT_VERSION"])

__getattr__, __dir__ = lazy_exports(__name__, _WHERE, "wapii_core.kits.wire has no {name!r}")
