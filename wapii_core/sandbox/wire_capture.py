"""Requests captured on the wire: a snippet process sends HTTP/1.1 bytes down a pipe that only its
supervisor reads, and the verdict is built from what the supervisor parses there.

Why: anything held inside the snippet's own process (a list of captured requests, an answer with a
nonce, a frame local) can be read and rewritten by the snippet, so an in-process capture can be
forged. A byte stream that leaves the process cannot be taken back: a program that writes bytes
into the channel has simply *sent* that request, exactly as it would have sent them to a socket.

- Snippet side (no third-party import): the sandbox attaches the pipe's write end with
  :func:`attach`; a harness's transport hook calls :func:`send_request` with what the HTTP library
  hands its transport (method, absolute URL, headers in order and spelling, body bytes). The message
  is serialised as an HTTP/1.1 request in absolute form (``GET https://host/path?q HTTP/1.1``):
  bytes outside ``!``..``~`` in the URL are percent-encoded (UTF-8), the library's framing headers
  (``Content-Length``, ``Transfer-Encoding``) are checked as a server reads them (framing a server
  refuses is a ``ValueError``: the library's send fails) and written as the body's length (the same
  value, or a body the connection chunked, de-chunked), ``Host`` is added
  when the library left it to the connection. A method that is not an HTTP token, a header name that
  is not one, or a header value holding CR, LF or NUL raises ``ValueError``, as the libraries' own
  connections (``http.client``, h11) refuse them: written as they are, they would end the request
  line or a header early and start another request, judged in place of the library's.
- Supervisor side: :func:`parse_requests` parses the bytes with h11, a well-kept HTTP/1.1 parser, into
  :class:`WireRequest` records; bytes that are no HTTP request are a :class:`WireError`, and so is a
  chunked body: :func:`serialise_request` never writes one, and h11 takes ~4 s of wapii's own time to
  parse 4 MB of one-byte chunks that a snippet wrote down the channel itself.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

MAX_WIRE_BYTES = 4 << 20
"""Bytes one snippet may send down the channel; more ends the snippet as a runtime error."""
MAX_REQUESTS = 16
"""Requests parsed from one snippet's channel at most (the first one is judged)."""
FRAMING_HEADERS = ("content-length", "transfer-encoding", "host")
_TOKEN = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
"""An HTTP method or header name (RFC 9110 ``token``)."""
_LINE_BREAKING = re.compile(rb"[\r\n\x00]")

_channel: int | None = None
_replies: int | None = None
_pending = bytearray()
"""Bytes read from the reply channel past the end of the last answer."""
MAX_RESPONSE_BYTES = 1 << 20
"""Bytes of one answer's body at most (a larger one is the responder's ``500``, see :mod:`.dialogue`)."""


def attach(fd: int | None, replies: int | None = None) -> None:
    """Makes ``fd`` the channel that :func:`send_request` writes to (None: requests go nowhere, as in a
    warm-up run outside any snippet) and ``replies`` the one the answers come back on (None: nothing
    answers; the first-call benchmark stops the program at its first request)."""
    global _channel, _replies
    _channel, _replies = fd, replies
    _pending.clear()


def answering() -> bool:
    """Whether the requests sent are answered (:func:`exchange` returns the answer): the program runs on
    after its first request, to its end."""
    return _channel is not None and _replies is not None


def _target(url: str) -> bytes:
    out = bytearray()
    for byte in url.encode("utf-8", errors="surrogatepass"):
        out += bytes([byte]) if 0x21 <= byte <= 0x7E else b"%%%02X" % byte
    return bytes(out)


def _latin1(text: Any) -> bytes:
    if isinstance(text, (bytes, bytearray)):
        return bytes(text)
    return str(text).encode("latin-1", errors="replace")


def _value(text: Any) -> bytes:
    if isinstance(text, (bytes, bytearray)):
        return bytes(text)
    return str(text).encode("utf-8", errors="surrogatepass")


def _text(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _header(name: bytes, value: bytes) -> bytes:
    if not _TOKEN.fullmatch(name):
        raise ValueError(f"invalid HTTP header name {name!r}")
    if _LINE_BREAKING.search(value):
        raise ValueError(f"invalid HTTP header value {value!r} (header {name!r})")
    return name + b": " + value


def check_framing(headers: list[tuple[Any, Any]], body: bytes) -> None:
    """Raises ``ValueError`` when the framing headers the library wrote would make a server refuse the
    request or read another body than ``body`` (RFC 9112 §6): ``Transfer-Encoding`` together with
    ``Content-Length`` (what requests and httpx send when a program sets ``Transfer-Encoding: chunked``
    over a body of known length: the body is not chunked on the wire), a coding other than
    ``chunked``, ``Content-Length`` values that disagree or differ from the body's length. A body
    the connection really chunks (``Transfer-Encoding: chunked`` alone) is judged as its bytes."""
    lengths = [_latin1(value).strip() for name, value in headers if _latin1(name).lower() == b"content-length"]
    codings = [_latin1(value) for name, value in headers if _latin1(name).lower() == b"transfer-encoding"]
    if codings:
        if lengths:
            raise ValueError("the request frames its body with both Transfer-Encoding and Content-Length; "
                             "a server refuses it")
        coding = b",".join(codings).replace(b" ", b"").replace(b"\t", b"").lower()
        if coding != b"chunked":
            raise ValueError(f"the request's Transfer-Encoding {coding.decode('latin-1')!r} is not 'chunked'; "
                             "a server refuses it")
        return
    if len(set(lengths)) > 1:
        raise ValueError("the request carries different Content-Length values; a server refuses it")
    if lengths and lengths[0] != str(len(body)).encode():
        raise ValueError(f"the request's Content-Length {lengths[0].decode('latin-1')!r} is not the {len(body)} "
                         "bytes of its body; a server reads another body")


def serialise_request(method: str, url: str, headers: list[tuple[Any, Any]], body: bytes) -> bytes:
    """The HTTP/1.1 message of one request, as :func:`parse_requests` reads it back (ValueError for a
    method, header name or header value that would break the message's lines, and for framing a
    server would refuse, see :func:`check_framing`)."""
    raw_method = _latin1(method)
    if not _TOKEN.fullmatch(raw_method):
        raise ValueError(f"invalid HTTP method {raw_method!r}")
    check_framing(headers, body)
    lines = [raw_method + b" " + _target(url) + b" HTTP/1.1"]
    names = set()
    for name, value in headers:
        raw = _latin1(name)
        names.add(raw.lower())
        if raw.lower() in (b"content-length", b"transfer-encoding"):
            continue
        lines.append(_header(raw, _value(value)))
    if b"host" not in names:
        lines.append(_header(b"Host", _latin1(urlsplit(url).netloc or "localhost")))
    lines.append(b"Content-Length: %d" % len(body))
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def send_request(method: str, url: str, headers: list[tuple[Any, Any]], body: bytes) -> None:
    """Sends one request down the channel (the snippet's only way to have a request judged)."""
    if _channel is None:
        return
    view = memoryview(serialise_request(method, url, headers, body))
    while view:
        view = view[os.write(_channel, view):]


@dataclass(frozen=True)
class WireResponse:
    """An answer as the snippet reads it from the reply channel: status, reason phrase, headers in
    order, body (its length is the ``Content-Length`` the supervisor wrote)."""

    status: int
    reason: str
    headers: list[tuple[str, str]]
    body: bytes


def _fill() -> bool:
    assert _replies is not None
    chunk = os.read(_replies, 1 << 16)
    if not chunk:
        return False
    _pending.extend(chunk)
    return True


def read_response() -> WireResponse:
    """The next answer on the reply channel (blocks until the supervisor wrote it); ``ConnectionError``
    when the channel ended (the supervisor ends a program it will answer no more)."""
    while (end := _pending.find(b"\r\n\r\n")) < 0:
        if not _fill():
            raise ConnectionError("the connection was closed without an answer")
    head = bytes(_pending[:end]).decode("latin-1").split("\r\n")
    del _pending[:end + 4]
    version, _, rest = head[0].partition(" ")
    code, _, reason = rest.partition(" ")
    headers = [(name, value.strip()) for name, _, value in (line.partition(":") for line in head[1:])]
    length = next((int(value) for name, value in headers if name.lower() == "content-length"), 0)
    while len(_pending) < length:
        if not _fill():
            raise ConnectionError("the connection was closed inside an answer")
    body = bytes(_pending[:length])
    del _pending[:length]
    return WireResponse(int(code), reason, headers, body)


def exchange(method: str, url: str, headers: list[tuple[Any, Any]], body: bytes) -> WireResponse | None:
    """Sends one request (:func:`send_request`) and returns its answer when the requests are answered
    (:func:`answering`), else None (the harness then stops the program, as the first-call benchmark does)."""
    send_request(method, url, headers, body)
    return read_response() if answering() else None


def serialise_response(status: int, headers: Any, body: bytes, reason: str = "") -> bytes:
    """The HTTP/1.1 message of one answer as :func:`read_response` reads it: a header whose name is no
    token or whose value would break the line is left out, and the framing is the body's own
    ``Content-Length``."""
    from http import HTTPStatus

    try:
        phrase = reason or HTTPStatus(status).phrase
    except ValueError:
        phrase = reason or "Unknown"
    lines = [b"HTTP/1.1 %d " % status + _LINE_BREAKING.sub(b" ", _latin1(phrase))]
    for name, value in headers:
        raw, text = _latin1(name), _value(value)
        if raw.lower() in (b"content-length", b"transfer-encoding") or not _TOKEN.fullmatch(raw) \
                or _LINE_BREAKING.search(text):
            continue
        lines.append(raw + b": " + text)
    lines.append(b"Content-Length: %d" % len(body))
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


@dataclass(frozen=True)
class WireRequest:
    """One request as the supervisor parsed it: ``target`` is the request line's URL (absolute form),
    ``headers`` in the order and spelling sent (values as UTF-8, else Latin-1), ``body`` the message body."""

    method: str
    target: str
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""


class WireError(ValueError):
    """The channel held bytes that are not a sequence of HTTP/1.1 requests."""


def _one(data: bytes) -> tuple[WireRequest, bytes]:
    import h11

    connection = h11.Connection(our_role=h11.SERVER, max_incomplete_event_size=MAX_WIRE_BYTES)
    connection.receive_data(data)
    connection.receive_data(b"")  # end of stream: an incomplete message is an error, not a wait
    request: Any = None
    body = bytearray()
    while True:
        try:
            event = connection.next_event()
        except h11.RemoteProtocolError as exc:
            raise WireError(f"the bytes sent are not an HTTP/1.1 request ({exc})") from None
        if isinstance(event, h11.Request):
            if any(name == b"transfer-encoding" for name, _ in event.headers):
                raise WireError("the bytes sent frame a body with Transfer-Encoding (the channel's requests carry "
                                "Content-Length)")
            request = event
        elif isinstance(event, h11.Data):
            body += event.data
        elif isinstance(event, h11.EndOfMessage):
            break
        else:  # NEED_DATA cannot happen after the end of stream; ConnectionClosed before a message
            raise WireError("the bytes sent end inside an HTTP request")
    rest, _closed = connection.trailing_data
    headers = [(name.decode("latin-1"), _text(value)) for name, value in request.headers.raw_items()]
    return WireRequest(request.method.decode("latin-1"), request.target.decode("latin-1"), headers, bytes(body)), rest


def parse_requests(data: bytes) -> list[WireRequest]:
    """The requests sent down one snippet's channel, in order (at most :data:`MAX_REQUESTS`).

    Raises :class:`WireError` when the bytes are no HTTP/1.1 requests (a truncated message too).
    """
    if len(data) > MAX_WIRE_BYTES:
        raise WireError(f"more than {MAX_WIRE_BYTES} bytes were sent")
    requests: list[WireRequest] = []
    rest = bytes(data)
    while rest and len(requests) < MAX_REQUESTS:
        request, rest = _one(rest)
        requests.append(request)
    return requests
