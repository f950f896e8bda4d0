"""What every Java adapter's oracle program sends, as the text its builder calls write: the URL with
its query (percent-encoded, values as the wire carries them), the headers, and the body as text
(JSON, a form, or a multipart body with a fixed boundary whose ``Content-Type`` the program sets)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from wapii_core.judge.wire import wire_text
from wapii_core.judge.wire_bodies import FORM_TYPE, MULTIPART_TYPE, media_type

BOUNDARY = "wapii-boundary-7MA4YWxkTrZu0gW"
PATH_SAFE = ":/@!$&'()*+,;=-._~"


def _items(values: dict[str, Any]) -> list[tuple[str, str]]:
    return [(str(key), wire_text(item)) for key, value in values.items()
            for item in (value if isinstance(value, list) else [value]) if item is not None]


def java_encoded_url(url: str) -> str:
    """``url`` (decoded text) as a URI Java's ``URI.create`` accepts, each character outside the
    path's own set percent-encoded."""
    scheme, sep, rest = url.partition("://")
    host, slash, path = rest.partition("/")
    return f"{scheme}{sep}{host}{slash}{quote(path, safe=PATH_SAFE)}" if sep else quote(url, safe=PATH_SAFE)


def java_query_string(params: dict[str, Any] | None) -> str:
    """``?k=v&...`` (values as wire mode reads them), or empty."""
    items = _items(params or {})
    return "?" + "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in items) if items else ""


def java_body_text(config: dict[str, Any], headers: dict[str, str]) -> str | None:
    """The body as sent, or None; sets the ``Content-Type`` the body needs in ``headers`` (JSON when
    the config names none; a multipart body's boundary)."""
    data = config.get("data")
    if data is None:
        return None
    name = next((k for k in headers if k.lower() == "content-type"), None)
    content_type = headers.get(name) if name else None
    media = media_type(content_type)
    if media == FORM_TYPE and isinstance(data, dict):
        return "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in _items(data))
    if media == MULTIPART_TYPE and isinstance(data, dict):
        headers[name or "Content-Type"] = f"{MULTIPART_TYPE}; boundary={BOUNDARY}"
        parts = [f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n" for k, v in _items(data)]
        return "".join(parts) + f"--{BOUNDARY}--\r\n"
    if content_type is None:
        headers["Content-Type"] = "application/json"
        return json.dumps(data, ensure_ascii=False)
    if isinstance(data, str) and media not in ("application/json",) and not media.endswith("+json"):
        return data
    return json.dumps(data, ensure_ascii=False)


def java_header_text(config: dict[str, Any]) -> dict[str, str]:
    """The config's headers as the strings sent."""
    return {str(k): wire_text(v) for k, v in (config.get("headers") or {}).items()}
