"""The HTTP transport of the ``openai`` backend: urllib3 connection pools, and what their errors mean.

urllib3 rather than httpx: with many threads sharing one pool, httpx's (httpcore's) pool spends
most of its time in its own locking; at 256 requests in flight against a server with 1 s latency
it took 7.8 s where urllib3 takes 2.2 s, and at 100 ms latency it could not keep even 128 requests
in flight (see ``benchmarks/bench_openai.py``).

:func:`pool` honours the environment's proxy settings (``HTTPS_PROXY``, ``NO_PROXY``, ...) as
httpx did. :func:`classify` sorts a failed request: ``unreachable`` (no connection could be made:
an unknown host, a refused connection, a TLS failure; waiting does not heal these), or
``transient`` (timeouts, dropped connections: worth retrying). :func:`one_line` and :func:`redact`
shape what a failure says: short, and never the key.
"""

from __future__ import annotations

import re
import urllib.request
from typing import Literal
from urllib.parse import urlsplit

import urllib3
from urllib3.exceptions import HTTPError, NewConnectionError, ProxyError, SSLError, TimeoutError

from wapii_core.kits.models import shortened_line

Kind = Literal["unreachable", "transient"]


def pool(base_url: str, *, connections: int, timeout: float, headers: dict[str, str] | None = None,
         write_timeout: float | None = None) -> urllib3.PoolManager:
    """A thread-safe pool of up to ``connections`` connections for requests to ``base_url`` (through
    the environment's proxy for its scheme, unless ``NO_PROXY`` exempts its host). Requests are
    never retried by urllib3 itself; ``timeout`` is per connect and per read."""
    options = dict(num_pools=4, maxsize=max(1, connections), block=True, headers=headers or {},
                   timeout=urllib3.Timeout(connect=timeout, read=max(timeout, write_timeout or 0.0)),
                   retries=False)
    parts = urlsplit(base_url)
    proxy = urllib.request.getproxies().get(parts.scheme)
    if proxy and not urllib.request.proxy_bypass(parts.hostname or ""):
        return urllib3.ProxyManager(proxy, **options)
    return urllib3.PoolManager(**options)


def classify(exc: HTTPError) -> tuple[Kind, str]:
    """``(kind, one-line reason)`` of a request that raised ``exc``."""
    if isinstance(exc, NewConnectionError):  # refused, or the name does not resolve
        return "unreachable", f"cannot connect ({detail(exc)})"
    if isinstance(exc, (SSLError, ProxyError)):
        return "unreachable", f"cannot connect ({type(exc).__name__}: {detail(exc)})"
    if isinstance(exc, TimeoutError):
        return "transient", f"timed out ({type(exc).__name__})"
    return "transient", f"connection failed ({type(exc).__name__}: {detail(exc)})"


def detail(exc: BaseException) -> str:
    """The exception's message on one line, without urllib3's ``<... object at 0x...>:`` and
    ``HTTPConnection(host=..., port=...):`` prefixes (the URL is named by the caller)."""
    text = " ".join(str(exc).split())
    return one_line(re.sub(r"<[^<>]* object at 0x[0-9a-fA-F]+>:? ?|HTTPS?Connection\(host=[^()]*\): ", "", text))


def one_line(text: str, limit: int = 200) -> str:
    """``text`` with its whitespace collapsed, cut to ``limit`` characters (the core's shortening):
    how a server's answer or an error appears in a message."""
    return shortened_line(text, limit)


def redact(text: str, secret: str | None) -> str:
    """``text`` with every occurrence of ``secret`` (the API key) replaced by ``***``: what any message
    that may quote a URL, a header or a server's answer goes through."""
    return text.replace(secret, "***") if secret else text
