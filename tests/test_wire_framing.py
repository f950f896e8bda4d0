"""Framing on the Python wire channel: what a server would refuse is refused, what it reads is judged."""

from __future__ import annotations

import pytest

from wapii_core.sandbox.wire_capture import parse_requests, serialise_request

BODY = b'{"a": 1}'


@pytest.mark.parametrize("headers, body, refusal", [
    ([("Transfer-Encoding", "chunked"), ("Content-Length", "8")], BODY, "both Transfer-Encoding and Content-Length"),
    ([("Content-Length", "8"), ("transfer-encoding", "chunked")], BODY, "both Transfer-Encoding and Content-Length"),
    ([("Transfer-Encoding", "gzip, chunked")], BODY, "is not 'chunked'"),
    ([("Content-Length", "10")], b"", "is not the 0 bytes"),
    ([("Content-Length", "7")], BODY, "is not the 8 bytes"),
    ([("Content-Length", "8"), ("Content-Length", "9")], BODY, "different Content-Length"),
])
def test_framing_a_server_refuses_is_refused(headers: list[tuple[str, str]], body: bytes, refusal: str) -> None:
    with pytest.raises(ValueError, match=refusal):
        serialise_request("POST", "https://api.example.com/x", headers, body)


@pytest.mark.parametrize("headers", [[("Content-Length", "8")], [("Transfer-Encoding", "chunked")],
                                     [("Transfer-Encoding", "Chunked")], []])
def test_framing_a_server_reads_is_judged_as_the_body(headers: list[tuple[str, str]]) -> None:
    [request] = parse_requests(serialise_request("POST", "https://api.example.com/x", headers, BODY))
    assert request.body == BODY
    assert [value for name, value in request.headers if name.lower() == "content-length"] == ["8"]


def test_real_libraries_refuse_or_send_as_the_serialiser_says() -> None:
    requests = pytest.importorskip("requests")
    from wapii_requests_py.messages import requests_message

    chunked_over_plain = requests.Request("POST", "https://api.example.com/x", data="abc",
                                          headers={"Transfer-Encoding": "chunked"}).prepare()
    assert {"Transfer-Encoding", "Content-Length"} <= set(chunked_over_plain.headers)
    with pytest.raises(ValueError, match="both"):
        serialise_request(*requests_message(chunked_over_plain))
    streamed = requests.Request("POST", "https://api.example.com/x", data=iter([b"ab", b"c"])).prepare()
    [request] = parse_requests(serialise_request(*requests_message(streamed)))
    assert request.body == b"abc"
