"""The admission policy of :class:`~wapii_openai_models.flow.Flow` on a scripted clock, one thread."""

from __future__ import annotations

from wapii_openai_models.flow import Flow


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_an_answer_over_but_still_being_read_does_not_count_as_generating():
    clock = Clock()
    flow = Flow(cap=8, timeout=60, clock=clock)
    with flow.watching() as a:
        clock.now = 0.1
        flow.first_token(a)  # started at once: the limit rises to 2
        assert flow.limit == 2 and flow.generating == 1
        with flow.watching() as b:
            clock.now = 3.0
            flow.ended(a)  # a's finish reason came; its usage and [DONE] are not read yet
            flow.first_token(b)  # b waited 3 s behind a: queued
            assert flow.queued_seen == 1 and flow.following
            assert flow.generating == 1 and flow.limit == 2  # b alone generates, one more may wait
    assert flow.generating == 0  # a's and b's ends counted once each


def test_a_request_that_starts_at_once_again_ends_following_and_the_limit_rises():
    clock = Clock()
    flow = Flow(cap=8, timeout=60, clock=clock)
    with flow.watching() as a:
        clock.now = 0.1
        flow.first_token(a)
    with flow.watching() as b:
        clock.now = 2.0
        flow.first_token(b)  # 1.9 s > 2 x 0.1 + 0.25: queued
        assert flow.following and flow.limit == 2
    with flow.watching() as c:
        clock.now = 2.1
        flow.first_token(c)  # as fast as the fastest: the server started it at once
        assert not flow.following and flow.limit == 3
