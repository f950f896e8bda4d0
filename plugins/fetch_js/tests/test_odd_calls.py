"""Odd but honest fetch calls: what Node's own fetch accepts is recorded as it sends it, what it
refuses is the runtime error with its own message (real Node's fetch beside the sandboxed one)."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

_spec = importlib.util.spec_from_file_location("fetch_execute_tests", Path(__file__).with_name("test_execute.py"))
_execute = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_execute)
BOUNDARY, as_sent, sent_by_real_fetch = _execute.BOUNDARY, _execute.as_sent, _execute.sent_by_real_fetch

ACCEPTED = [
    "fetch([BASE + '/list'])",  # a list as the URL: its text, the one element
    "fetch(new URL(BASE + '/u?x=1'), { method: 'POST', body: 'a' })",
    "fetch({ toString: () => BASE + '/own' })",  # fetch converts the URL once, as recorded
    "fetch(BASE + '/p', { method: 'post' }, 'extra', 42)",
    "fetch(BASE + '/p', null)",
    "fetch(BASE + '/p', () => 1)",  # a function is a dictionary to WebIDL
]
REFUSED = [
    "fetch({ method: 'DELETE', headers: { 'Content-Type': 'application/json' }, body: '{}' })",
    "fetch(12345)",
    "fetch(null)",
    "fetch()",
    "fetch(BASE + '/p', 5)",
    "fetch(BASE + '/p', 'method=POST')",
    "fetch(BASE + '/p', Symbol('s'))",
]


def test_odd_calls_fetch_accepts_are_recorded_as_sent(adapter) -> None:
    real = sent_by_real_fetch(ACCEPTED)
    ours = adapter.execute([call.replace("BASE", "'https://api.example.com'") + ";" for call in ACCEPTED])
    for call, wire, capture in zip(ACCEPTED, real, ours):
        assert capture.error is None, (call, capture.detail)
        wire_headers = [pair for pair in wire["headers"] if pair[0].lower() not in ("host", "connection")]
        assert BOUNDARY.sub("B", json.dumps(as_sent(capture.request))) == BOUNDARY.sub(
            "B", json.dumps({**wire, "headers": wire_headers})), call


def test_odd_calls_fetch_refuses_are_runtime_errors_with_its_message(run_one) -> None:
    real = sent_by_real_fetch(REFUSED)
    for call, wire in zip(REFUSED, real):
        assert set(wire) == {"error"}, (call, wire)
        message = re.sub(r"http://127\.0\.0\.1:\d+", "https://api.example.com", wire["error"])
        capture = run_one(f"{call.replace('BASE', repr('https://api.example.com'))};")
        assert (capture.error, capture.detail) == ("runtime_error", f"unhandled rejection: {message}"), call
