"""A WAPIIBench request configuration (``url``, ``method``, ``headers``, ``params``, ``data``) as the
:class:`~wapii_core.mock.exchange.MockRequest` a client sends for it: what ``setup`` calls replay and
what tests send."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from wapii_core.base.media import form_kind
from wapii_core.mock.exchange import MockRequest


def config_request(config: dict[str, Any]) -> MockRequest:
    """The :class:`~wapii_core.mock.exchange.MockRequest` a WAPIIBench request configuration
    (``url``, ``method``, ``headers``, ``params``, ``data``) describes, sent as a client sends it
    (a JSON body unless its Content-Type says a form)."""
    url = str(config.get("url", ""))
    params = config.get("params") or {}
    if isinstance(params, dict) and params:
        pairs = []
        for name, value in params.items():
            for item in value if isinstance(value, list) else [value]:
                pairs.append((name, _text(item)))
        url += ("&" if "?" in url else "?") + urlencode(pairs)
    headers = [(str(k), _text(v)) for k, v in (config.get("headers") or {}).items() if v is not None]
    content_type = next((v for k, v in headers if k.lower() == "content-type"), None)
    data = config.get("data")
    body = b""
    if data is not None:
        kind = form_kind(content_type)
        if kind == "form" and isinstance(data, dict):
            body = urlencode([(k, _text(i)) for k, v in data.items() for i in (v if isinstance(v, list) else [v])]).encode()
        elif kind == "multipart" and isinstance(data, dict):
            boundary = "wapii-mock-boundary"
            body = "".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{_text(v)}\r\n'
                           for k, v in data.items()).encode() + f"--{boundary}--\r\n".encode()
            headers = [(k, v) for k, v in headers if k.lower() != "content-type"]
            headers.append(("Content-Type", f"multipart/form-data; boundary={boundary}"))
        else:
            body = json.dumps(data).encode()
            if content_type is None:
                headers.append(("Content-Type", "application/json"))
    return MockRequest(str(config.get("method", "get")).upper(), url, tuple(headers), body)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)
