"""The supervisor's side of a program's exchanges (:mod:`wapii_core.sandbox.dialogue`), fed bytes as a
worker relays them: requests cut off the stream however it is split, answered in order by the
responder, bounded, and recorded; and the record's way into the run files and ``wapii show``."""

from __future__ import annotations

import json

from rich.console import Console

from wapii_core.base.model import SampleResult
from wapii_core.mock.exchange import EmptyResponder, MockResponse
from wapii_core.run.conformance import CreateReadResponder
from wapii_core.sandbox import wire_capture
from wapii_core.sandbox.dialogue import MAX_EXCHANGES, RECORDED_BODY, Dialogue, answers, dialogues
from wapii_core.sandbox.wire_capture import MAX_RESPONSE_BYTES, serialise_request, serialise_response

BASE = "https://app.example.com/api/1.0"


def _post(name: str) -> bytes:
    return serialise_request("POST", f"{BASE}/projects", [("Content-Type", "application/json")],
                             json.dumps({"data": {"name": name}}).encode())


def test_requests_split_anywhere_are_answered_in_order() -> None:
    dialogue = Dialogue(CreateReadResponder("5"))
    stream = _post("a") + _post("b") + serialise_request("GET", f"{BASE}/projects/52", [], b"")
    replies = []
    for start in range(0, len(stream), 7):  # 7-byte pieces: heads and bodies cut mid-way
        replies += dialogue.feed(stream[start:start + 7])
    assert [r.split(b"\r\n", 1)[0] for r in replies] == [b"HTTP/1.1 201 Created", b"HTTP/1.1 201 Created",
                                                         b"HTTP/1.1 200 OK"]
    assert replies[2].endswith(b'{"data": {"gid": "52", "name": "b"}}')
    assert [(x.method, x.status, x.note) for x in dialogue.exchanges] == [
        ("POST", 201, "created /api/1.0/projects/51"), ("POST", 201, "created /api/1.0/projects/52"),
        ("GET", 200, "read /api/1.0/projects/52")]
    assert dialogue.ended is None


def test_an_answer_reads_back_as_sent() -> None:
    import os

    read, write = os.pipe()
    os.write(write, serialise_response(404, [("X-A", "1"), ("Content-Length", "999"), ("Bad\nName", "v"), ("Y", "a\r\nb")],
                                       b"nope") + serialise_response(204, [], b""))
    wire_capture.attach(None, read)
    try:
        first, second = wire_capture.read_response(), wire_capture.read_response()
    finally:
        wire_capture.attach(None)
        os.close(read)
        os.close(write)
    assert (first.status, first.reason, first.headers, first.body) == (404, "Not Found", [("X-A", "1"), ("Content-Length", "4")], b"nope")
    assert (second.status, second.body) == (204, b"")


class Broken:
    def __init__(self, answer) -> None:
        self.answer_value = answer

    def answer(self, request):
        if isinstance(self.answer_value, Exception):
            raise self.answer_value
        return self.answer_value


def test_a_failing_or_oversized_answer_is_a_500_noted_in_the_record() -> None:
    for responder, why in [(Broken(KeyError("x")), "KeyError"), (Broken("not a response"), "not a MockResponse"),
                           (Broken(MockResponse(200, (), b"x" * (MAX_RESPONSE_BYTES + 1))), "more than")]:
        dialogue = Dialogue(responder)
        (reply,) = dialogue.feed(_post("a"))
        assert reply.startswith(b"HTTP/1.1 500 ")
        assert dialogue.exchanges[0].status == 500 and why in dialogue.exchanges[0].note


def test_the_bounds() -> None:
    flood = Dialogue(CreateReadResponder())
    replies = flood.feed(_post("a") * (MAX_EXCHANGES + 5))
    assert len(replies) == len(flood.exchanges) == MAX_EXCHANGES
    assert flood.ended == f"the program sent more than {MAX_EXCHANGES} requests"
    assert flood.feed(_post("b")) == []

    garbage = Dialogue(CreateReadResponder())
    assert garbage.feed(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n") == []
    assert "not an HTTP/1.1 request" in garbage.ended

    endless = Dialogue(CreateReadResponder())
    endless.feed(b"GET / HTTP/1.1\r\n" + b"X: y\r\n" * 20000)
    assert "no end of its headers" in endless.ended

    big = Dialogue(CreateReadResponder())
    body = json.dumps({"data": {"name": "é" * RECORDED_BODY}}).encode()
    big.feed(serialise_request("POST", f"{BASE}/projects", [], body))
    kept = big.exchanges[0].request
    assert kept.size == len(body) and len(kept.body.encode()) <= RECORDED_BODY and kept.body_base64 is None


def test_nothing_answers_without_a_real_responder() -> None:
    assert not answers(None) and not answers(EmptyResponder()) and answers(CreateReadResponder())
    assert dialogues(None, 2) == [None, None]
    assert [d is None for d in dialogues([None, EmptyResponder(), CreateReadResponder()], 3)] == [True, True, False]


def test_the_exchanges_go_through_the_run_record_and_show() -> None:
    from wapii_core.report.sample_story import exchange_lines

    dialogue = Dialogue(CreateReadResponder("7"))
    dialogue.feed(_post("Apollo") + serialise_request("GET", f"{BASE}/projects/71", [], b""))
    hostile = Dialogue(Broken(MockResponse(200, (), b"\x1b]0;pwned\x07\x1b[2J", reason="\x1b[31mred")))
    hostile.feed(_post("x"))
    result = SampleResult(sample="demo/0", api="demo", verdict="correct", exchanges=dialogue.exchanges + hostile.exchanges)
    again = SampleResult.model_validate_json(result.model_dump_json())
    assert again.exchanges == dialogue.exchanges + hostile.exchanges
    assert SampleResult.model_validate_json(SampleResult(sample="d/0", api="d", verdict="wrong").model_dump_json()).exchanges is None
    console = Console(record=True, width=200, force_terminal=True)
    console.print(exchange_lines(again.exchanges))
    shown = console.export_text()
    assert "1. POST https://app.example.com/api/1.0/projects" in shown and "answered: 201" in shown
    assert "created /api/1.0/projects/71" in shown and "3. POST" in shown
    assert "\x1b" not in shown and "\x07" not in shown and "\\x1b]0;pwned\\x07" in shown


def test_wapii_show_tells_the_exchanges_in_order() -> None:
    from wapii_core.report.sample_story import SampleStory, print_story
    from wapii_core.store.record import RunRecord

    dialogue = Dialogue(CreateReadResponder("3"))
    dialogue.feed(_post("Apollo") + serialise_request("GET", f"{BASE}/projects/31", [], b""))
    run = RunRecord(dataset="demo", adapter="requests_py", backend="replay")
    shown = []
    for exchanges in (dialogue.exchanges, None):
        result = SampleResult(sample="demo/0", api="demo", verdict="correct", exchanges=exchanges)
        console = Console(record=True, width=200)
        print_story(SampleStory("runs/x", run, "demo/0", 0, "a task", None, result), console=console)
        shown.append(console.export_text())
    assert "Exchanges (2: every request and its answer, in order)" in shown[0]
    assert shown[0].index("1. POST") < shown[0].index("2. GET https://app.example.com/api/1.0/projects/31")
    assert "Exchanges" not in shown[1]  # the first-call benchmark's record: nothing answered, nothing told


def test_an_answer_without_a_body_is_sent_without_one() -> None:
    """HEAD, 204 and 304 carry no body on the wire (a library that reads none would read the next
    answer's bytes as this one's), though the record keeps what the responder gave."""
    for method, status in [("HEAD", 200), ("GET", 204), ("GET", 304)]:
        dialogue = Dialogue(Broken(MockResponse(status, (("ETag", "x"),), b"{}")))
        (reply,) = dialogue.feed(serialise_request(method, f"{BASE}/projects", [], b""))
        assert reply.endswith(b"ETag: x\r\nContent-Length: 0\r\n\r\n")
        assert dialogue.exchanges[0].response.body == "{}"
    interim = Dialogue(Broken(MockResponse(100)))
    assert interim.feed(_post("a"))[0].startswith(b"HTTP/1.1 500 ")
