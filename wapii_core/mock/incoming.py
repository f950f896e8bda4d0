"""A request as the mock reads it: its path relative to the API's server, query, headers and body
decoded, and whether it carries the credentials an operation's security requirement asks for.

The URL may be the API's own (``https://app.asana.com/api/1.0/tasks``, as programs under the
sandbox send it) or one on the ``wapii mock`` server (``http://127.0.0.1:8080/api/1.0/tasks`` or,
without the server's path, ``http://127.0.0.1:8080/tasks``): only the path after the server's
path is matched.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from wapii_core.base.media import form_kind, is_json, media_type
from wapii_core.mock.exchange import MockRequest

MAX_BODY = 4 * 1024 * 1024
"""Bytes of a request body the mock reads; a longer body is answered 413."""


class BadBody(Exception):
    """A body that cannot be decoded as its Content-Type says (the message says why)."""


@dataclass
class Incoming:
    method: str  # lower case
    path: str  # relative to the server's path, starting with "/"
    query: list[tuple[str, str]]
    headers: dict[str, str]  # lower-case names, first occurrence
    content_type: str | None
    body: bytes
    base: str = ""  # scheme, host and the server's path as the request spelt them (for links back)
    data: Any = None  # the decoded body (JSON value, form dict); None: none
    fields: dict[str, Any] = field(default_factory=dict)  # query, then body properties, by name

    def value(self, name: str) -> Any:
        """A request field by name: a body property, a query parameter or a header (that order)."""
        if isinstance(self.data, dict) and name in self.data:
            return self.data[name]
        for key, value in self.query:
            if key == name:
                return value
        return self.headers.get(name.lower())

    def params(self) -> dict[str, Any]:
        """The query as a configuration's ``params``: a name given more than once as a list."""
        out: dict[str, Any] = {}
        for key, value in self.query:
            if key in out:
                out[key] = (out[key] if isinstance(out[key], list) else [out[key]]) + [value]
            else:
                out[key] = value
        return out


def read_request(request: MockRequest, server_path: str, server_host: str = "") -> Incoming:
    """Split ``request`` (BadBody for a body its Content-Type cannot decode). On the API's own host
    (``server_host``) the path must start with the server's path, as the real server's would;
    elsewhere (``wapii mock``'s 127.0.0.1) it may leave it out. A path that does not is kept whole,
    with a ``\0`` in front so that no template matches it."""
    parts = urlsplit(request.url)
    path = parts.path or "/"
    prefix = server_path.rstrip("/")
    base = f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""
    if prefix and (path == prefix or path.startswith(prefix + "/")):
        path = path[len(prefix):] or "/"
        base += prefix
    elif prefix and server_host and parts.netloc.lower() == server_host.lower():
        path = "\0" + path
    headers: dict[str, str] = {}
    for name, value in request.headers:
        headers.setdefault(name.lower(), value)
    content_type = headers.get("content-type")
    incoming = Incoming(request.method.lower(), path, parse_qsl(parts.query, keep_blank_values=True), headers,
                        content_type, request.body, base)
    incoming.data = _decode(request.body, content_type)
    return incoming


def _decode(body: bytes, content_type: str | None) -> Any:
    if not body:
        return None
    if len(body) > MAX_BODY:
        raise BadBody(f"a body of {len(body)} bytes (the mock reads at most {MAX_BODY})")
    media = media_type(content_type or "application/json")
    kind = form_kind(media)
    if kind == "form":
        pairs = parse_qsl(body.decode("utf-8", errors="replace"), keep_blank_values=True)
        return _grouped(pairs)
    if kind == "multipart":
        from wapii_core.openapi.request_decoding import Unsupported, multipart_parts, parse_mimetype

        try:
            parts = multipart_parts(body, parse_mimetype(content_type or "")[1])
        except (Unsupported, ValueError, TypeError) as exc:
            raise BadBody(f"a multipart body that cannot be read ({exc})") from exc
        return _grouped([(name, payload.decode("utf-8", errors="replace")) for name, payload in parts])
    if is_json(media) or media in ("text/json", "text/plain", ""):
        try:
            return json.loads(body)
        except (ValueError, RecursionError) as exc:
            if is_json(media):
                raise BadBody(f"the body is not JSON ({str(exc)[:120]})") from exc
            return body.decode("utf-8", errors="replace")
    return None


def _grouped(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            out[key] = (out[key] if isinstance(out[key], list) else [out[key]]) + [value]
        else:
            out[key] = value
    return out


def credentials_present(requirements: Any, schemes: dict[str, Any], incoming: Incoming,
                        extra_names: tuple[str, ...] = ()) -> bool:
    """Whether ``incoming`` meets one alternative of a security requirement (a list of
    ``{scheme: scopes}``; ``[]`` or an empty alternative: none needed). A request field named in
    ``extra_names`` (a declaration's ``credentials``, e.g. Slack's ``token``) counts as any credential."""
    if not isinstance(requirements, list) or not requirements:
        return True
    if any(incoming.value(name) not in (None, "") for name in extra_names):
        return True
    for alternative in requirements:
        if not isinstance(alternative, dict) or all(_has(schemes.get(name), incoming) for name in alternative):
            return True
    return False


def _has(scheme: Any, incoming: Incoming) -> bool:
    if not isinstance(scheme, dict):
        return True  # an undeclared scheme: nothing to check against
    kind = scheme.get("type")
    authorization = incoming.headers.get("authorization", "").strip()
    if kind == "apiKey":
        name, where = str(scheme.get("name", "")), scheme.get("in")
        if where == "header":
            return bool(incoming.headers.get(name.lower(), "").strip())
        if where == "query":
            return any(k == name and v for k, v in incoming.query)
        if where == "cookie":
            return f"{name}=" in incoming.headers.get("cookie", "")
        return True
    if kind == "http":
        wanted = str(scheme.get("scheme", "bearer")).lower()
        return authorization.lower().startswith(wanted + " ") and len(authorization) > len(wanted) + 1
    if kind in ("oauth2", "openIdConnect"):
        return (authorization.lower().startswith("bearer ") and len(authorization) > 7) or any(
            k == "access_token" and v for k, v in incoming.query)
    return True
