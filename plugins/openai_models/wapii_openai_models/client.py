"""One POST to an OpenAI-compatible server, retried until it yields an answer or gives up.

With ``stream`` (the default) the answer is read as server-sent events (:mod:`.stream`): the time
to its first token is the time it waited in the server's queue, the rest the time generating; the
stop string is applied here; and :class:`~.flow.Flow` decides how many requests are in flight and
when one has made no progress for too long.

Requests rotate over the configured base URLs (a retry goes to the next server), so a fleet of
identical servers shares the load and a failing one is routed around. A server that cannot be
connected to at all (an unknown host, a refused connection) is not waited for like a rate limit:
the call moves on at once to a server it has not tried, and gives up when none is left.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from urllib3.exceptions import HTTPError

from wapii_core.kits.models import cut_at_stop

from .flow import Flow, Watch
from .retry import RetryPolicy, Transient, raise_if_retryable
from .stream import READ_SIZE, read_events
from .transport import classify, one_line, pool, redact


@dataclass(frozen=True)
class Answer:
    """What the model said for one request."""

    text: str
    finish_reason: str  # "stop" or "length"
    tokens_in: int | None = None  # the response's usage.prompt_tokens, where the server reports it
    tokens_out: int | None = None  # usage.completion_tokens
    latency_s: float | None = None  # seconds generating: from the first token to the end (streaming), else
    # from sending the request to its answer
    queue_s: float | None = None  # streaming: seconds from sending the request to its first token


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
                 connections: int, stream: bool = False, adaptive: bool = True) -> None:
        self.base_urls = list(base_urls)
        self.policy = policy
        self.stream = stream
        self.timeout = timeout
        self.flow = Flow(cap=connections, timeout=timeout, adaptive=stream and adaptive)
        self._api_key = api_key
        self._turn = itertools.count()
        self._closed = threading.Event()
        self.sleep = self._closed.wait  # how the client waits between attempts (ends early when closed)
        headers = {"Content-Type": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self._pools = {url: pool(url, connections=connections, timeout=timeout, headers=headers) for url in base_urls}

    def _next_url(self) -> str:
        return self.base_urls[next(self._turn) % len(self.base_urls)]

    def complete(self, endpoint: str, body: dict[str, Any], stop: str | None = None,
                 complete: Callable[[str], bool] | None = None) -> Answer:
        """POST ``body`` to ``endpoint`` ("completions" or "chat"), retrying transient failures
        (:meth:`RetryPolicy.call`; the wait between attempts ends early when the client is closed).
        The answer is cut after ``stop`` (included) wherever the server left it; when streaming, it
        also ends once ``complete(text so far)`` holds (:mod:`wapii_core.generation.call_stop`).

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
                with self.flow.slot():
                    if self._closed.is_set():  # closed while this call waited for a place in flight
                        raise CallFailed(redact(f"client closed; last error: {last}", self._api_key))
                    if self.stream:
                        return self._attempt_streaming(base, url, endpoint, body, stop, complete)
                    began = time.monotonic()
                    answer = self._attempt(base, url, endpoint, body)
                    text = cut_at_stop(answer.text, stop)[0]
                    return Answer(text, answer.finish_reason, answer.tokens_in, answer.tokens_out,
                                  latency_s=time.monotonic() - began)
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
            return self.policy.call(attempt, sleep=self.sleep)
        except Transient:
            raise CallFailed(redact(f"gave up after {self.policy.retries + 1} attempts; last error: {last}",
                                    self._api_key)) from None

    def _post(self, base: str, url: str, body: dict[str, Any], *, stream: bool) -> Any:
        try:
            return self._pools[base].request("POST", url, body=json.dumps(body).encode("utf-8"),
                                             preload_content=not stream)
        except HTTPError as exc:
            kind, reason = classify(exc)
            raise (_Unreachable if kind == "unreachable" else Transient)(reason) from None

    def _refused(self, url: str, response: Any) -> None:
        """Raise for a response whose status is not 200: :class:`Transient` or :class:`CallFailed`."""
        text = response.data.decode("utf-8", "replace")
        message = f"HTTP {response.status}: {one_line(text)}"
        raise_if_retryable(response.status, response.headers, message)
        raise CallFailed(redact(f"{url}: {message}", self._api_key))

    def _attempt(self, base: str, url: str, endpoint: str, body: dict[str, Any]) -> Answer:
        response = self._post(base, url, body, stream=False)
        if response.status != 200:
            self._refused(url, response)
        text = response.data.decode("utf-8", "replace")
        try:
            payload = json.loads(text)
        except json.JSONDecodeError:
            raise Transient(f"malformed JSON in the response: {one_line(text)}") from None
        return parse_answer(endpoint, payload)

    def _attempt_streaming(self, base: str, url: str, endpoint: str, body: dict[str, Any], stop: str | None,
                           complete: Callable[[str], bool] | None = None) -> Answer:
        """One streamed request: the events read as they come, watched by :attr:`flow`."""
        body = {**body, "stream": True, "stream_options": {"include_usage": True}}
        with self.flow.watching() as watch:
            response = self._post(base, url, body, stream=True)
            read_to_end = False
            try:
                if response.status != 200:
                    self._refused(url, response)
                if not response.headers.get("content-type", "").startswith("text/event-stream"):
                    return self._unstreamed(url, endpoint, response, watch, stop)
                sock = getattr(response.connection, "sock", None)
                if sock is not None:
                    sock.settimeout(None)  # from here on the watchdog decides what "too slow" is
                watch.abort = response.shutdown
                if watch.stalled:
                    response.shutdown()

                def on_text(first: bool) -> None:
                    (self.flow.first_token if first else self.flow.chunk)(watch)

                try:
                    got = read_events(lambda: response.read1(READ_SIZE), endpoint, stop, on_text=on_text,
                                      complete=complete, on_end=lambda: self.flow.ended(watch))
                except (HTTPError, OSError) as exc:
                    if watch.stalled:
                        raise Transient(watch.stalled) from None
                    raise Transient(f"the connection broke mid-answer ({type(exc).__name__}: {one_line(str(exc))})") \
                        from None
                if watch.stalled:  # the read ended because the watchdog shut the socket
                    raise Transient(watch.stalled)
                read_to_end = got.at_eof  # else (cut here, or ended at "[DONE]") the connection is not reused
            finally:
                if not read_to_end:
                    response.close()  # closing the connection is how a client says "stop generating"
                response.release_conn()
        first = got.first_at if got.first_at is not None else got.ended_at
        assert first is not None and got.ended_at is not None
        return Answer(got.text, got.finish_reason, got.tokens_in, got.tokens_out, latency_s=got.ended_at - first,
                      queue_s=first - watch.sent)

    def _unstreamed(self, url: str, endpoint: str, response: Any, watch: Watch, stop: str | None) -> Answer:
        """A server that answered a streaming request with one JSON answer."""
        text = response.data.decode("utf-8", "replace")
        self.flow.first_token(watch)
        try:
            payload = json.loads(text)
        except json.JSONDecodeError:
            raise Transient(f"malformed JSON in the response: {one_line(text)}") from None
        answer = parse_answer(endpoint, payload)
        return Answer(cut_at_stop(answer.text, stop)[0], answer.finish_reason, answer.tokens_in, answer.tokens_out,
                      latency_s=time.monotonic() - watch.sent)

    def close(self) -> None:
        """Stop waiting between retries and close the connections."""
        self._closed.set()
        self.flow.close()
        for manager in self._pools.values():
            manager.clear()
