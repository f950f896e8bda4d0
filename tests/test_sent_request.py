"""The core's wire normaliser (``wapii_core.judge.sent_request``), fed what the wire channel carries:
requests serialised by the snippet side and parsed back by the supervisor's side."""

from __future__ import annotations

from wapii_core.judge.sent_request import normalise_wire_request
from wapii_core.sandbox.wire_capture import parse_requests, serialise_request


def sent(method: str, url: str, headers: list[tuple[str, str]], body: bytes = b""):
    (request,) = parse_requests(serialise_request(method, url, headers, body))
    return request


def test_a_request_on_the_wire_becomes_the_neutral_config() -> None:
    request = sent("GET", "https://api.example.com/v1/a%20b%2Fc?q=a+b&n=10&n=11&flag",
                   [("X-Key", "k"), ("Accept-Encoding", "gzip")])
    config = normalise_wire_request(request, own_header=lambda name, value: name.lower() == "accept-encoding")
    assert config == {
        "url": "https://api.example.com/v1/a b/c", "sent_url": "https://api.example.com/v1/a b%2Fc",
        "method": "get", "headers": {"X-Key": "k"},
        "params": {"q": "a b", "n": ["10", "11"], "flag": True}, "sent_params": {"q": "a b", "n": ["10", "11"], "flag": ""},
    }


def test_a_repeated_header_is_one_spelled_as_first_sent_its_values_joined_in_order() -> None:
    request = sent("POST", "https://api.example.com/a", [("X-Tag", "a"), ("x-tag", "b"), ("X-TAG", "c, d")])
    assert normalise_wire_request(request)["headers"] == {"X-Tag": "a, b, c, d"}


def test_framing_and_the_urls_own_host_are_dropped_another_host_is_the_codes() -> None:
    same = sent("POST", "https://api.example.com/a", [("Host", "API.example.com:443")], b"x")
    assert normalise_wire_request(same)["headers"] == {}
    other = sent("GET", "https://api.example.com/a", [("Host", "internal.example.com")])
    assert normalise_wire_request(other)["headers"] == {"Host": "internal.example.com"}
    own = normalise_wire_request(other, own_header=lambda name, value: True)
    assert own["headers"] == {"Host": "internal.example.com"}  # the server routes by it: never the library's


def test_a_method_sent_in_lower_case_is_kept_as_sent() -> None:
    assert normalise_wire_request(sent("patch", "https://a.example/x", []))["sent_method"] == "patch"
    assert "sent_method" not in normalise_wire_request(sent("PATCH", "https://a.example/x", []))


def test_typed_hints_replace_the_text_only_where_the_library_sent_exactly_it() -> None:
    request = sent("GET", "https://a.example/x?limit=10&on=true&ratio=2.0&name=10", [])
    config = normalise_wire_request(request, hints={"limit": 10, "on": True, "ratio": 2.0, "absent": 1, "name": "10"})
    assert config["params"] == {"limit": 10, "on": True, "ratio": "2.0", "name": "10"}  # JSON's 2.0 is "2"
    assert config["sent_params"] == {"limit": "10", "on": "true", "ratio": "2.0", "name": "10"}
    python = normalise_wire_request(request, hints={"on": True}, sends_as=lambda hint, text: text == "true",
                                    written_value=lambda hint: "stands-for-" + str(hint))
    assert python["params"]["on"] == "stands-for-True"


def test_bodies_are_decoded_by_their_first_content_type_a_multipart_one_without_boundary() -> None:
    json_body = sent("POST", "https://a.example/x", [("Content-Type", "application/json")], b'{"a": [1, true]}')
    assert normalise_wire_request(json_body)["data"] == {"a": [1, True]}
    form = sent("POST", "https://a.example/x", [("content-type", "application/x-www-form-urlencoded")], b"a=1&a=2&b=x+y")
    assert normalise_wire_request(form)["data"] == {"a": ["1", "2"], "b": "x y"}
    multipart = (b"--XyZ\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nv\r\n--XyZ--\r\n")
    config = normalise_wire_request(sent("POST", "https://a.example/x",
                                         [("Content-Type", "multipart/form-data; boundary=XyZ")], multipart))
    assert config["data"] == {"f": "v"} and config["headers"] == {"Content-Type": "multipart/form-data"}
    assert "data" not in normalise_wire_request(sent("GET", "https://a.example/x", []))
