"""When to retry a failed HTTP call and how long to wait first."""

from __future__ import annotations

import email.utils
import random
import time
from dataclasses import dataclass

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 521, 522, 523, 524, 529})
"""Statuses that say "try again": timeouts, rate limits, overloaded or failing servers and proxies."""


def is_retryable_status(status: int) -> bool:
    return status in RETRYABLE_STATUS or status >= 500


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date), or None."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with jitter, overridden by a server's ``Retry-After``.

    Attempt ``a`` (0 for the first retry) waits a random time in ``[d/2, d]`` with
    ``d = min(max_backoff, backoff * 2**a)``: doubling spreads retries out, the jitter keeps many
    clients from retrying in lockstep. A ``Retry-After`` from the server is honoured (capped at
    ``max_retry_after``), plus up to 10 % jitter.
    """

    retries: int = 5
    backoff: float = 0.5
    max_backoff: float = 30.0
    max_retry_after: float = 600.0

    def delay(self, attempt: int, retry_after: float | None = None, rng: random.Random | None = None) -> float:
        draw = (rng or random).random()
        if retry_after is not None:
            wait = min(retry_after, self.max_retry_after)
            return wait + 0.1 * wait * draw
        ceiling = min(self.max_backoff, self.backoff * (2 ** attempt))
        return ceiling / 2 + ceiling / 2 * draw
