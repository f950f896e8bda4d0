"""The retry policy: backoff, jitter, Retry-After, and which failures are retried."""

from __future__ import annotations

import email.utils
import random

import pytest

from wapii_openai_models.retry import RetryPolicy, Transient, is_retryable_status, parse_retry_after


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


def scripted(*outcomes):
    """An attempt that raises or returns each of ``outcomes`` in turn, and counts its calls."""
    queue = list(outcomes)

    def attempt():
        attempt.calls += 1
        outcome = queue.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    attempt.calls = 0
    return attempt


def test_a_call_retries_transient_failures_waiting_as_the_policy_says():
    waits: list[float] = []
    policy = RetryPolicy(retries=3, backoff=0.5, max_backoff=4.0, max_retry_after=5.0)
    attempt = scripted(Transient("busy"), Transient("rate limited", retry_after=2.0), Transient("at once", 0.0), "answer")
    assert policy.call(attempt, sleep=waits.append) == "answer"
    assert attempt.calls == 4 and len(waits) == 3
    assert 0.25 <= waits[0] <= 0.5 and 2.0 <= waits[1] <= 2.2 and waits[2] == 0.0


def test_a_call_gives_up_after_its_retries_with_the_last_failure():
    waits: list[float] = []
    attempt = scripted(*(Transient(f"failure {n}") for n in range(1, 5)))
    with pytest.raises(Transient, match="failure 3"):
        RetryPolicy(retries=2, backoff=0.01).call(attempt, sleep=waits.append)
    assert attempt.calls == 3 and len(waits) == 2  # no wait after the last attempt


def test_any_other_failure_ends_a_call_at_once():
    waits: list[float] = []
    attempt = scripted(Transient("busy"), ValueError("refused"), "never reached")
    with pytest.raises(ValueError, match="refused"):
        RetryPolicy(retries=5).call(attempt, sleep=waits.append)
    assert attempt.calls == 2 and len(waits) == 1
