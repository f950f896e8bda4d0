"""The bound on what a captured request may hold to be judged (:mod:`wapii_core.judge.capture_limits`)."""

from __future__ import annotations

from wapii_core.judge.capture_limits import (MAX_JUDGED_REQUEST_BYTES, MAX_JUDGED_VALUES, captured_size, oversized,
                                             too_many_values)


def test_the_size_is_that_of_the_capture_as_compact_utf8_json() -> None:
    capture = {"url": "https://a.example/é", "body": {"text": "\u00ff" * 3}}
    assert captured_size(capture) == len('{"url":"https://a.example/é","body":{"text":"ÿÿÿ"}}'.encode())
    assert captured_size({"a": "\ud800"}) == len('{"a":""}') + 3  # a lone surrogate counts, never raises


def test_a_capture_over_the_size_is_refused_with_its_size_and_one_at_it_is_not() -> None:
    at = {"b": "x" * (MAX_JUDGED_REQUEST_BYTES - len('{"b":""}'))}
    assert captured_size(at) == MAX_JUDGED_REQUEST_BYTES and oversized(at) is None
    over = {"b": at["b"] + "x"}
    assert oversized(over) == (f"is larger than the {MAX_JUDGED_REQUEST_BYTES} bytes judged "
                               f"({MAX_JUDGED_REQUEST_BYTES + 1} bytes)")


def test_a_capture_json_cannot_write_is_measured_by_walking_it() -> None:
    deep: list = []
    for _ in range(100_000):  # past the JSON encoder's recursion limit
        deep = [deep]
    assert oversized(deep) is None  # small: the depth is judged elsewhere
    assert "(at least " in oversized([deep, "x" * MAX_JUDGED_REQUEST_BYTES])


def test_values_are_counted_keys_and_items_alike_up_to_the_bound() -> None:
    request = {"url": "u", "data": {"k": ["v"] * (MAX_JUDGED_VALUES - 7)}}  # 7 with the keys and containers
    assert too_many_values(request) is None
    request["data"]["k"].append("v")
    assert too_many_values(request) == f"holds more than the {MAX_JUDGED_VALUES} values judged"
