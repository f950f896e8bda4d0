"""The one retry policy of the ``openai`` backend: which failures are retried and how long to wait.

Every HTTP call of the plugin goes through :meth:`RetryPolicy.call` (built on tenacity): a request
for an answer (:mod:`.client`) and each Batch API control call (:mod:`.batch`). A call's attempt
raises :class:`Transient` for a failure worth retrying (a timeout, a dropped connection, a status of
:data:`RETRYABLE_STATUS`, a malformed answer) and anything else to stop at once.
"""

from __future__ import annotations

import email.utils
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping, TypeVar

if TYPE_CHECKING:
    from .options import OpenAIOptions

T = TypeVar("T")

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 521, 522, 523, 524, 529})
"""Statuses that say "try again": timeouts, rate limits, overloaded or failing servers and proxies."""


class Transient(Exception):
    """A failed attempt worth retrying; ``retry_after``: the seconds the server asked for (or 0 for
    "at once"), None to back off."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def is_retryable_status(status: int) -> bool:
    return status in RETRYABLE_STATUS or status >= 500


def raise_if_retryable(status: int, headers: Mapping[str, str], message: str) -> None:
    """Raise :class:`Transient` (with the response's ``Retry-After``) when ``status`` says "try again"."""
    if is_retryable_status(status):
        raise Transient(message, parse_retry_after(headers.get("retry-after")))


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
    """Up to ``retries`` retries after the first attempt, with exponential backoff and jitter,
    overridden by a server's ``Retry-After``.

    Attempt ``a`` (0 for the first retry) waits a random time in ``[d/2, d]`` with
    ``d = min(max_backoff, backoff * 2**a)``: doubling spreads retries out, the jitter keeps many
    clients from retrying in lockstep. A ``Retry-After`` from the server is honoured (capped at
    ``max_retry_after``), plus up to 10 % jitter.
    """

    retries: int = 5
    backoff: float = 0.5
    max_backoff: float = 30.0
    max_retry_after: float = 600.0

    @classmethod
    def of(cls, options: "OpenAIOptions") -> "RetryPolicy":
        """The policy of the backend's options (``retries``, ``backoff``, ``max_backoff``, ``max_retry_after``)."""
        return cls(retries=options.retries, backoff=options.backoff, max_backoff=options.max_backoff,
                   max_retry_after=options.max_retry_after)

    def delay(self, attempt: int, retry_after: float | None = None, rng: random.Random | None = None) -> float:
        draw = (rng or random).random()
        if retry_after is not None:
            wait = min(retry_after, self.max_retry_after)
            return wait + 0.1 * wait * draw
        ceiling = min(self.max_backoff, self.backoff * (2 ** attempt))
        return ceiling / 2 + ceiling / 2 * draw

    def call(self, attempt: Callable[[], T], *, sleep: Callable[[float], Any] = time.sleep) -> T:
        """``attempt()``'s result, calling it again after each :class:`Transient` it raises (waiting
        :meth:`delay` through ``sleep``) until it returns or ``retries + 1`` attempts have failed;
        then the last :class:`Transient` is raised. Any other exception ends the call at once."""
        import tenacity

        retrying = tenacity.Retrying(
            stop=tenacity.stop_after_attempt(self.retries + 1),
            retry=tenacity.retry_if_exception_type(Transient),
            wait=lambda state: self.delay(state.attempt_number - 1, state.outcome.exception().retry_after),
            sleep=sleep, reraise=True)
        return retrying(attempt)
