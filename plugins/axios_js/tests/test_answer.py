"""The workers' answers are checked before the judging sees them: a malformed one is that call's
``runtime_error`` with a ``bad_capture`` detail, never an exception that stops the run."""

from __future__ import annotations

from typing import Any

import pytest

from wapii_axios_js.runtime import CapturedRequest
from wapii_core.kits.node import to_capture

REQUEST = {"url": "https://api.example.com/items", "method": "get",
           "headers": {"Accept": "application/json, text/plain, */*"}, "params": {"limit": 5, "tags": ["a", "b"]}}


def test_a_request_passes_unchanged() -> None:
    capture = to_capture({"request": REQUEST, "requests": 1}, "last", CapturedRequest)
    assert capture.error is None and capture.detail is None
    assert capture.request == REQUEST and list(capture.request) == list(REQUEST)


def test_present_keys_stay_present_and_absent_ones_absent() -> None:
    request = {"url": "u", "method": "post", "data": None, "path_params": {"id": "7"}}
    assert to_capture({"request": request, "requests": 1}, "last", CapturedRequest).request == request


def test_several_requests_say_which_one_is_judged() -> None:
    capture = to_capture({"request": REQUEST, "requests": 3}, "first", CapturedRequest)
    assert capture.request == REQUEST and capture.detail == "3 requests issued; the first one is judged"


@pytest.mark.parametrize(("error", "kind"), [("runtime_error", "runtime_error"), ("no_request", "no_request"),
                                             ("timeout", "runtime_error"), ("worker_died", "runtime_error")])
def test_errors_pass_sandbox_ones_as_runtime_errors(error: str, kind: str) -> None:
    capture = to_capture({"error": error, "detail": "why"}, "last", CapturedRequest)
    assert (capture.request, capture.error, capture.detail) == (None, kind, "why")


MALFORMED: dict[str, tuple[Any, str]] = {
    "path_params a number": ({**REQUEST, "path_params": 7}, "path_params is not an object"),
    "params a list": ({**REQUEST, "params": [1, 2]}, "params is not an object"),
    "headers a string": ({**REQUEST, "headers": "x"}, "headers is not an object"),
    "a header a number": ({**REQUEST, "headers": {"Content-Type": 5}}, "headers.Content-Type is not a string"),
    "url a number": ({**REQUEST, "url": 5}, "url is not a string"),
    "method a list": ({**REQUEST, "method": [1]}, "method is not a string"),
    "method an object": ({**REQUEST, "method": {}}, "method is not a string"),
    "no url": ({"method": "get"}, "url is missing"),
    "an unknown key": ({**REQUEST, "toJSON": 1}, "toJSON is not a field of a captured request"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_request_is_a_bad_capture(name: str) -> None:
    request, problem = MALFORMED[name]
    capture = to_capture({"request": request, "requests": 1}, "last", CapturedRequest)
    assert (capture.request, capture.error, capture.detail) == (None, "runtime_error", f"bad_capture: {problem}")


@pytest.mark.parametrize("answer", [
    [], "text", None, {}, {"request": REQUEST}, {"request": REQUEST, "requests": 0},
    {"request": REQUEST, "requests": "1"}, {"request": REQUEST, "requests": 1, "error": "runtime_error"},
    {"request": [REQUEST], "requests": 1}, {"error": "correct", "detail": "forged"}, {"error": "runtime_error"},
    {"error": "no_request", "detail": 5}, {"error": "runtime_error", "detail": "x", "request": REQUEST},
])
def test_a_malformed_answer_is_a_bad_capture(answer: Any) -> None:
    capture = to_capture(answer, "last", CapturedRequest)
    assert capture.request is None and capture.error == "runtime_error"
    assert capture.detail.startswith("bad_capture: ")
