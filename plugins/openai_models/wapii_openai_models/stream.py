"""Reading a streamed answer (server-sent events) and cutting it at the stop string on the client.

A streamed completions or chat response is a series of ``data: {json}`` events, each with a piece
of the answer (``choices[0].text`` or ``choices[0].delta.content``), then one with the finish
reason, optionally one with the ``usage``, and ``data: [DONE]`` (which some servers leave out).

The stop string is applied here, on the text the server generated, never on the prompt: the
backend does not send it to the server (a server may match it across the end of the prompt, as
``transformers serve`` does, or leave it out of the text, as OpenAI does), and once it appears the
answer is cut right after it and the connection closed, which tells the server to stop.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Callable

from wapii_core.kits.models import cut_at_stop

from .retry import Transient
from .transport import one_line

READ_SIZE = 65536
MAX_EVENT_BYTES = 4 * 1024 * 1024
"""An event (a line) longer than this is refused: a broken or hostile server cannot fill the memory."""


@dataclass
class Streamed:
    """What a stream delivered."""

    text: str = ""
    finish_reason: str = "stop"
    tokens_in: int | None = None
    tokens_out: int | None = None
    chunks: int = 0  # events that carried text
    cut_by_client: bool = False  # the stop string appeared and the rest was not read
    at_eof: bool = False  # the response was read to its end (its connection can be reused)
    first_at: float | None = None  # when the first text arrived
    ended_at: float | None = None


def _piece(endpoint: str, choice: dict[str, Any]) -> str:
    if endpoint == "chat":
        delta = choice.get("delta") or choice.get("message") or {}
        content = delta.get("content") if isinstance(delta, dict) else None
    else:
        content = choice.get("text")
    return content if isinstance(content, str) else ""


def _usage(value: Any) -> tuple[int | None, int | None]:
    if not isinstance(value, dict):
        return None, None
    got = [value.get(k) for k in ("prompt_tokens", "completion_tokens")]
    ok = [g if isinstance(g, int) and not isinstance(g, bool) else None for g in got]
    return ok[0], ok[1]


def read_events(read: Callable[[], bytes], endpoint: str, stop: str | None, *,
                on_text: Callable[[bool], None], complete: Callable[[str], bool] | None = None,
                on_end: Callable[[], None] = lambda: None, clock: Callable[[], float] = time.monotonic) -> Streamed:
    """Read the events ``read()`` returns (bytes, ``b""`` at the end) into a :class:`Streamed`.

    After each event with text, as the ``hf`` backend after each token: the answer ends after
    ``stop`` when that has appeared, or where it is when ``complete(text so far)`` holds.

    ``on_text(first)`` is called for each event carrying text (``first`` for the first one): how
    the caller measures the time to the first token and the progress of the stream; ``on_end()``
    once, when the answer's text is over (a finish reason came, or the answer was cut here), before
    the stream's tail is read. Raises
    :class:`Transient` for an event with an ``error`` or an event that is not JSON.
    """
    out = Streamed()
    parts: list[str] = []
    length = 0
    buffer = b""
    reason: str | None = None
    while True:
        data = read()
        if not data:
            break
        buffer += data
        *lines, buffer = buffer.split(b"\n")
        if len(buffer) > MAX_EVENT_BYTES:
            raise Transient(f"an event of the stream is longer than {MAX_EVENT_BYTES} bytes")
        for raw in lines:
            line = raw.strip()
            if not line.startswith(b"data:"):
                continue  # blank separators, comments, "event:" lines
            payload = line[5:].strip()
            if payload == b"[DONE]":
                out.ended_at = clock()
                return _finish(out, parts, reason)
            try:
                event = json.loads(payload)
            except ValueError:
                raise Transient(f"malformed event in the stream: {one_line(payload.decode('utf-8', 'replace'))}") \
                    from None
            if not isinstance(event, dict):
                continue
            if event.get("error") is not None:
                raise Transient(f"the server reported an error mid-answer: {one_line(json.dumps(event['error']))}")
            if event.get("usage"):
                out.tokens_in, out.tokens_out = _usage(event["usage"])
            choices = event.get("choices")
            if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
                continue
            choice = choices[0]
            if choice.get("finish_reason"):
                reason = str(choice["finish_reason"])
            piece = _piece(endpoint, choice)
            if not piece:
                if reason is not None:
                    on_end()
                continue
            on_text(out.first_at is None)
            if out.first_at is None:
                out.first_at = clock()
            out.chunks += 1
            parts.append(piece)
            length += len(piece)
            text = "".join(parts)
            # the stop string can only end in the new piece: search from where it could begin
            if (stop and stop in text[max(0, length - len(piece) - len(stop) + 1):]) or (complete and complete(text)):
                out.cut_by_client = True
                out.ended_at = clock()
                on_end()
                return _finish(out, parts, "stop", stop)
            if reason is not None:
                on_end()
    out.ended_at = clock()
    out.at_eof = True
    return _finish(out, parts, reason)


def _finish(out: Streamed, parts: list[str], reason: str | None, stop: str | None = None) -> Streamed:
    text = "".join(parts)
    if stop:
        text = cut_at_stop(text, stop)[0]
    out.text = text
    out.finish_reason = "length" if reason == "length" else "stop"
    if out.cut_by_client or out.tokens_out is None:
        out.tokens_out = out.chunks if out.chunks else out.tokens_out  # the server's count did not come
    return out
