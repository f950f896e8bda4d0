"""Backoff, jitter and Retry-After."""

from __future__ import annotations

import email.utils
import random

from wapii_openai_models.retry import RetryPolicy, is_retryable_status, parse_retry_after


def test_retry_after_in_seconds_or_as_an_http_date():
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after("0.25") == 0.25
    assert parse_retry_after("-4") == 0.0
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None
    date = email.utils.formatdate(1_000_030, usegmt=True)
    assert parse_retry_after(date, now=1_000_000) == 30.0


def test_backoff_doubles_up_to_the_cap_with_jitter():
    policy = RetryPolicy(backoff=0.5, max_backoff=4.0)
    rng = random.Random(7)
    for attempt, ceiling in [(0, 0.5), (1, 1.0), (2, 2.0), (3, 4.0), (8, 4.0)]:
        delays = [policy.delay(attempt, rng=rng) for _ in range(200)]
        assert all(ceiling / 2 <= d <= ceiling for d in delays)
        assert max(delays) - min(delays) > ceiling / 4  # jittered, not lockstep


def test_retry_after_wins_and_is_capped():
    policy = RetryPolicy(backoff=0.01, max_retry_after=5.0)
    assert 2.0 <= policy.delay(0, retry_after=2.0) <= 2.2
    assert 5.0 <= policy.delay(0, retry_after=3600) <= 5.5


def test_which_statuses_are_retried():
    assert all(is_retryable_status(s) for s in (408, 429, 500, 502, 503, 504, 599))
    assert not any(is_retryable_status(s) for s in (400, 401, 403, 404, 422))
