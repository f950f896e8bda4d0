"""One POST to an OpenAI-compatible server, retried until it yields an answer or gives up.

Requests rotate over the configured base URLs (a retry goes to the next server), so a fleet of
identical servers shares the load and a failing one is routed around. A server that cannot be
connected to at all (an unknown host, a refused connection) is not waited for like a rate limit:
the call moves on at once to a server it has not tried, and gives up when none is left.
"""

from __future__ import annotations

import itertools
import json
import threading
from dataclasses import dataclass
from typing import Any

from urllib3.exceptions import HTTPError

from .retry import RetryPolicy, Transient, raise_if_retryable
from .transport import classify, one_line, pool, redact


@dataclass(frozen=True)
class Answer:
    """What the model said for one request."""

    text: str
    finish_reason: str  # "stop" or "length"
    tokens_in: int | None = None  # the response's usage.prompt_tokens, where the server reports it
    tokens_out: int | None = None  # usage.completion_tokens
    latency_s: float | None = None  # seconds from sending the request to its answer (retries included)


class CallFailed(Exception):
    """The call could not be completed (after every retry, or a non-retryable error)."""


class _Unreachable(Exception):
    """No connection could be opened (DNS failure, connection refused): backing off will not heal it."""


def parse_answer(endpoint: str, payload: Any) -> Answer:
    """The first choice of a completions (``text``) or chat (``message.content``) response."""
    try:
        choice = payload["choices"][0]
        text = choice["message"]["content"] if endpoint == "chat" else choice["text"]
    except (KeyError, IndexError, TypeError):
        raise Transient(f"response without choices[0].{'message.content' if endpoint == 'chat' else 'text'}: "
                        f"{one_line(json.dumps(payload))}") from None
    reason = choice.get("finish_reason") if isinstance(choice, dict) else None
    usage = payload.get("usage") if isinstance(payload, dict) else None
    tokens = [usage.get(k) if isinstance(usage, dict) else None for k in ("prompt_tokens", "completion_tokens")]
    tokens_in, tokens_out = (t if isinstance(t, int) and not isinstance(t, bool) else None for t in tokens)
    return Answer(text=text or "", finish_reason="length" if reason == "length" else "stop", tokens_in=tokens_in,
                  tokens_out=tokens_out)


class ApiClient:
    """A thread-safe client for the completions and chat endpoints of one or more servers."""

    PATHS = {"completions": "/completions", "chat": "/chat/completions"}

    def __init__(self, base_urls: list[str], api_key: str | None, *, timeout: float, policy: RetryPolicy,
                 connections: int) -> None:
        self.base_urls = list(base_urls)
        self.policy = policy
        self._api_key = api_key
        self._turn = itertools.count()
        self._closed = threading.Event()
        headers = {"Content-Type": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._pools = {url: pool(url, connections=connections, timeout=timeout, headers=headers) for url in base_urls}

    def _next_url(self) -> str:
        return self.base_urls[next(self._turn) % len(self.base_urls)]

    def complete(self, endpoint: str, body: dict[str, Any]) -> Answer:
        """POST ``body`` to ``endpoint`` ("completions" or "chat"), retrying transient failures
        (:meth:`RetryPolicy.call`; the wait between attempts ends early when the client is closed).

        Raises :class:`CallFailed` with a one-line reason when every attempt failed or the server
        refused the request (a 4xx other than 408/409/425/429).
        """
        last = "no attempt"
        unreachable: set[str] = set()  # servers this call could not connect to

        def attempt() -> Answer:
            nonlocal last
            if self._closed.is_set():
                raise CallFailed(redact(f"client closed; last error: {last}", self._api_key))
            base = self._next_url()
            if base in unreachable:
                base = next(u for u in self.base_urls if u not in unreachable)
            url = base + self.PATHS[endpoint]
            try:
                return self._attempt(base, url, endpoint, body)
            except _Unreachable as exc:
                last = f"{url}: {exc}"
                unreachable.add(base)
                if len(unreachable) == len(self.base_urls):
                    raise CallFailed(redact(f"{last}; not retried (an unknown host or a refused connection does "
                                            "not heal by waiting)", self._api_key)) from None
                raise Transient(last, retry_after=0.0) from None  # another server, at once
            except Transient as exc:
                last = f"{url}: {exc}"
                raise

        try:
            return self.policy.call(attempt, sleep=self._closed.wait)
        except Transient:
            raise CallFailed(redact(f"gave up after {self.policy.retries + 1} attempts; last error: {last}",
                                    self._api_key)) from None

    def _attempt(self, base: str, url: str, endpoint: str, body: dict[str, Any]) -> Answer:
        try:
            response = self._pools[base].request("POST", url, body=json.dumps(body).encode("utf-8"))
        except HTTPError as exc:
            kind, reason = classify(exc)
            raise (_Unreachable if kind == "unreachable" else Transient)(reason) from None
        text = response.data.decode("utf-8", "replace")
        if response.status != 200:
            message = f"HTTP {response.status}: {one_line(text)}"
            raise_if_retryable(response.status, response.headers, message)
            raise CallFailed(redact(f"{url}: {message}", self._api_key))
        try:
            payload = json.loads(text)
        except json.JSONDecodeError:
            raise Transient(f"malformed JSON in the response: {one_line(text)}") from None
        return parse_answer(endpoint, payload)

    def close(self) -> None:
        """Stop waiting between retries and close the connections."""
        self._closed.set()
        for manager in self._pools.values():
            manager.clear()
