"""What the ``openai`` backend checks before it sends anything: the key, the servers, the model.

Each failure is one :class:`~wapii_core.base.errors.WapiiError` line (exit 2, no run directory):

- a hosted API that always needs a key (OpenAI, OpenRouter, ...) and no key in ``$api_key_env``:
  refused without any network access;
- every base URL answers ``GET {base_url}/models`` within a few seconds: an unknown host, a refused
  connection or a timeout names the URL; a 401 or 403 says the key is missing or refused;
- the listing is an OpenAI model list and the model is among the ones listed. Any other answer
  (a 404 from a server that is not an OpenAI API at that URL, a 5xx, a page that is not a model
  list) stops the run with the status and the first line of the body; a server that serves names
  it does not list (llama.cpp aliases) needs ``-O preflight=false``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping
from urllib.parse import urlsplit

from urllib3.exceptions import HTTPError, TimeoutError

from wapii_core.api import WapiiError

from .transport import classify, detail, one_line, pool, redact

if TYPE_CHECKING:
    from .calls import Call
    from .options import OpenAIOptions

KEYED_HOSTS = frozenset({
    "api.openai.com", "openrouter.ai", "api.together.xyz", "api.groq.com", "api.deepseek.com",
    "api.mistral.ai", "api.fireworks.ai", "api.anthropic.com", "generativelanguage.googleapis.com",
})
"""Hosted APIs that answer nothing without a key."""

PREFLIGHT_TIMEOUT_S = 10.0
SKIP = "-O preflight=false skips these checks"


def preflight(options: OpenAIOptions, model: str, calls: Iterable[Call],
              cached: Callable[[Iterable[str]], Mapping[str, Any]]) -> None:
    """The checks above for a run of ``model`` whose requests are ``calls`` (read only when needed);
    ``cached``: the answers in the cache among the keys given. None when every answer is cached, with
    ``-O preflight=false``, or when the requests go to batch files."""
    o = options
    if not o.preflight or o.batch == "files":
        return
    keys = {c.key for c in calls if not c.unsatisfiable}
    if not keys or len(cached(keys)) == len(keys):
        return
    api_key = os.environ.get(o.api_key_env) or None
    check_key(o.base_url, api_key, o.api_key_env)
    for url in o.base_url:
        check_server(url, model, api_key, o.api_key_env, timeout=min(o.timeout, PREFLIGHT_TIMEOUT_S))


def needs_key(base_url: str) -> bool:
    """Whether ``base_url`` is a hosted API known to require a key."""
    host = (urlsplit(base_url).hostname or "").lower()
    return host in KEYED_HOSTS or host.endswith(".openai.azure.com")


def check_key(base_urls: list[str], api_key: str | None, api_key_env: str) -> None:
    """Refuse, without network access, a hosted API that needs a key when none is set."""
    if api_key:
        return
    for url in base_urls:
        if needs_key(url):
            raise WapiiError(f"backend openai: {url} needs an API key and ${api_key_env} is not set "
                             "(export it, or name another variable with -O api_key_env=NAME)")


def check_server(base_url: str, model: str, api_key: str | None, api_key_env: str, *,
                 timeout: float = PREFLIGHT_TIMEOUT_S) -> None:
    """``GET {base_url}/models``: the server answers, accepts the key and lists ``model`` (if it lists any)."""
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    manager = pool(base_url, connections=1, timeout=timeout, headers=headers)
    try:
        response = manager.request("GET", f"{base_url}/models")
    except HTTPError as exc:
        if classify(exc)[0] == "unreachable":
            raise WapiiError(f"backend openai: cannot reach {base_url}: {redact(detail(exc), api_key)} "
                             "(is the server running? check -O base_url)") from None
        if isinstance(exc, TimeoutError):
            raise WapiiError(f"backend openai: {base_url} did not answer within {timeout:g} s ({SKIP})") from None
        raise WapiiError(f"backend openai: cannot reach {base_url}: {redact(detail(exc), api_key)}") from None
    finally:
        manager.clear()
    if response.status in (401, 403):
        if not api_key:
            raise WapiiError(f"backend openai: {base_url} needs an API key (HTTP {response.status}) and "
                             f"${api_key_env} is not set (export it, or name another variable with "
                             "-O api_key_env=NAME)")
        raise WapiiError(f"backend openai: {base_url} refused the API key in ${api_key_env} "
                         f"(HTTP {response.status}: {redact(_message(response), api_key)})")
    if response.status != 200:
        raise WapiiError(f"backend openai: GET {base_url}/models answered HTTP {response.status}: "
                         f"{redact(first_line(response.data), api_key)} (is {base_url} an OpenAI-compatible API, "
                         f"usually ending in /v1? {SKIP})")
    served = _model_ids(response)
    if served is None:
        raise WapiiError(f"backend openai: GET {base_url}/models did not answer with a model list: "
                         f"{redact(first_line(response.data), api_key)} ({SKIP})")
    if model not in served:
        listed = ", ".join(sorted(served)[:10]) + (", ..." if len(served) > 10 else "") or "none"
        raise WapiiError(f"backend openai: {base_url} does not serve model {model!r} (it lists: {listed}; "
                         f"{SKIP})")


def first_line(body: bytes) -> str:
    """The first non-blank line of a response body, shortened (``(empty body)`` when there is none)."""
    text = body.decode("utf-8", "replace").strip()
    return one_line(text.splitlines()[0]) if text else "(empty body)"


def _model_ids(response: Any) -> set[str] | None:
    try:
        data: Any = response.json().get("data")
        return {str(m["id"]) for m in data}
    except (ValueError, AttributeError, KeyError, TypeError):
        return None  # not an OpenAI model list: nothing to check against


def _message(response: Any) -> str:
    try:
        text = str(response.json()["error"]["message"])
    except (ValueError, KeyError, TypeError):
        text = response.data.decode("utf-8", "replace")
    return one_line(text)
