"""How many requests the ``openai`` backend keeps in flight, and whether the server is making progress.

The policy (the plugin's README states it for users):

- **Measure, then fill what the server serves.** A run starts with one request in flight. With
  streaming, each request's time to its first token (TTFT) says whether the server started it at
  once or made it wait behind others: the fastest TTFT seen is the server's own (prompt processing),
  and a request whose TTFT is more than ``2 x fastest + QUEUE_SLACK_S`` was queued. A request started
  at once raises the limit by one (up to ``-O concurrency``); a queued one sets it to the number of
  requests generating at that moment plus one and, until a request starts at once again, lets a
  new request go only when none of the run's is waiting for its first token: the server always has
  the next request waiting and never a queue of them. (The count alone would not do: an answer
  whose stream's tail is still being read when the next one starts counts as generating.) A server
  that generates one request at a time (``transformers serve`` on a CPU) gets two in flight; vLLM
  or a hosted API ramps up to ``concurrency``.
- **A timeout means "no progress".** A request that is generating fails when ``-O timeout``
  seconds pass without a chunk of its answer; a request still waiting for its first token fails
  only when no request of the run got a chunk for that long (the server has stalled), never merely
  because the server is busy with others. Nothing is cancelled for being slow.

Without streaming (``-O stream=false``) nothing is visible until the answer: ``concurrency``
requests are kept in flight and ``timeout`` bounds each whole answer.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from contextlib import contextmanager
from typing import Callable, Iterator

QUEUE_SLACK_S = 0.25
"""Seconds of TTFT jitter that do not yet count as waiting in a queue."""


@dataclass
class Watch:
    """One streaming request, as the watchdog sees it."""

    sent: float
    abort: Callable[[], None] = lambda: None  # unblocks the thread reading the response
    started: bool = False  # its first token arrived
    ended: bool = False  # its answer's text is over (what may follow is bookkeeping: usage, [DONE])
    last: float = 0.0  # when it last received a chunk
    stalled: str | None = None  # why the watchdog aborted it


@dataclass
class Flow:
    """Admission (how many requests may be in flight) and the no-progress watchdog, shared by the
    threads of one client. ``adaptive``: start at one and follow the server (streaming); else
    ``cap`` from the start."""

    cap: int
    timeout: float
    adaptive: bool = True
    clock: Callable[[], float] = time.monotonic
    limit: int = 0
    in_flight: int = 0
    generating: int = 0
    fastest_ttft: float | None = None
    peak_limit: int = 0  # the highest limit reached (logs and tests)
    queued_seen: int = 0  # first tokens that arrived after waiting in the server's queue
    following: bool = False  # the last first token had waited in a queue: one request waiting at most
    peak_waiting_following: int = 0  # the most requests waiting for a first token at once while following
    _cond: threading.Condition = field(default_factory=threading.Condition)
    _by_id: dict[int, Watch] = field(default_factory=dict)
    _last_progress: float = 0.0
    _waiting: set[int] = field(default_factory=set)  # threads holding a place whose first token has not come
    _closed: threading.Event = field(default_factory=threading.Event)
    _watchdog: threading.Thread | None = None

    def __post_init__(self) -> None:
        self.limit = 1 if self.adaptive else self.cap
        self.peak_limit = self.limit
        self._last_progress = self.clock()

    # -- admission ------------------------------------------------------------------------------

    @contextmanager
    def slot(self) -> Iterator[None]:
        """Hold one of the ``limit`` places in flight for the duration of a request."""
        me = threading.get_ident()
        with self._cond:
            while (self.in_flight >= self.limit or (self.following and self._waiting)) and not self._closed.is_set():
                self._cond.wait()
            self.in_flight += 1
            self._waiting.add(me)
            if self.following:
                self.peak_waiting_following = max(self.peak_waiting_following, len(self._waiting))
        try:
            yield
        finally:
            with self._cond:
                self.in_flight -= 1
                self._waiting.discard(me)
                self._cond.notify_all()

    def _set_limit(self, value: int) -> None:
        self.limit = max(1, min(self.cap, value))
        self.peak_limit = max(self.peak_limit, self.limit)
        self._cond.notify_all()

    # -- what streams report ----------------------------------------------------------------------

    @contextmanager
    def watching(self, abort: Callable[[], None] = lambda: None) -> Iterator[Watch]:
        """Register a streaming request with the watchdog while it is read."""
        watch = Watch(sent=self.clock(), abort=abort)
        with self._cond:
            self._by_id[id(watch)] = watch
            self._ensure_watchdog()
        try:
            yield watch
        finally:
            with self._cond:
                self._by_id.pop(id(watch), None)
                self._end(watch)

    def ended(self, watch: Watch) -> None:
        """``watch``'s answer is over: its finish reason came, or the client cut it. From here it no
        longer counts as generating, before its stream's tail is read and its connection released
        (the server may already be generating the next request: the limit must not count both)."""
        with self._cond:
            self._end(watch)

    def _end(self, watch: Watch) -> None:
        if watch.started and not watch.ended:
            self.generating -= 1
        watch.ended = True

    def first_token(self, watch: Watch) -> float:
        """Record ``watch``'s first token; returns its time to first token (the time it waited)."""
        now = self.clock()
        ttft = now - watch.sent
        with self._cond:
            watch.started, watch.last, self._last_progress = True, now, now
            self.generating += 1
            queued = self.fastest_ttft is not None and ttft > 2 * self.fastest_ttft + QUEUE_SLACK_S
            self.fastest_ttft = ttft if self.fastest_ttft is None else min(self.fastest_ttft, ttft)
            self._waiting.discard(threading.get_ident())
            if self.adaptive:
                self.following = queued
                if queued:
                    self.queued_seen += 1
                    self.peak_waiting_following = max(self.peak_waiting_following, len(self._waiting))
                    self._set_limit(self.generating + 1)
                else:
                    self._set_limit(self.limit + 1)
        return ttft

    def chunk(self, watch: Watch) -> None:
        """Record a chunk of ``watch``'s answer (progress)."""
        now = self.clock()
        watch.last = now
        self._last_progress = now

    # -- the watchdog -----------------------------------------------------------------------------

    def _ensure_watchdog(self) -> None:
        if self._watchdog is None:
            self._watchdog = threading.Thread(target=self._watch_loop, name="wapii-openai-watchdog", daemon=True)
            self._watchdog.start()

    def stalled(self, now: float) -> list[tuple[Watch, str]]:
        """The requests to abort at ``now``, each with the reason (see the module docstring)."""
        out = []
        with self._cond:
            for watch in self._by_id.values():
                if watch.stalled:
                    continue
                if watch.started and now - watch.last > self.timeout:
                    out.append((watch, f"no token for {self.timeout:g} s while generating (-O timeout)"))
                elif not watch.started and now - max(watch.sent, self._last_progress) > self.timeout:
                    out.append((watch, f"no first token, and no progress on any request, for {self.timeout:g} s "
                                       "(-O timeout)"))
        return out

    def _watch_loop(self) -> None:
        step = max(0.05, min(1.0, self.timeout / 4))
        while not self._closed.wait(step):
            for watch, why in self.stalled(self.clock()):
                watch.stalled = why
                try:
                    watch.abort()
                except Exception:  # noqa: BLE001 - the reader already finished: nothing to unblock
                    pass

    def close(self) -> None:
        self._closed.set()
        with self._cond:
            self._cond.notify_all()

