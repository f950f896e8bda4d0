"""From a captured request record to the neutral request config."""

from __future__ import annotations

import base64

from wapii_core.kits.wire import decode_body as decode_bytes, parse_query, raw_bytes


def decode_body(body, content_type):
    """A recorded body decoded as the Python adapters decode it."""
    return decode_bytes(raw_bytes(body), content_type)
from wapii_requests_py.libraries import HTTPX, REQUESTS
from wapii_core.kits.python import normalise_python_request as normalise_record

DEFAULTS = [["User-Agent", "python-requests/0"], ["Accept-Encoding", "gzip, deflate"], ["Accept", "*/*"],
            ["Connection", "keep-alive"]]


def record(url: str, headers=(), body=None, passed=None, method="GET") -> dict:
    return {"method": method, "url": url, "headers": [list(h) for h in headers], "body": body, "passed": passed or {}}


def test_url_method_and_query() -> None:
    config = normalise_record(record("https://a.example/v1/a%20b/%3Cid%3E?x=1&y=a+b&y=c&flag"), REQUESTS)
    assert config["url"] == "https://a.example/v1/a b/<id>" and config["method"] == "get"
    assert config["params"] == {"x": "1", "y": ["a b", "c"], "flag": True}
    assert config["sent_params"] == {"x": "1", "y": ["a b", "c"], "flag": ""}
    assert "data" not in config


def test_typed_values_passed_in_params_are_kept_but_not_those_in_the_url() -> None:
    passed = {"url": "https://a.example/v1?limit=5", "params": {"archived": True, "n": 2, "missing": None, "l": [1, 2]}}
    config = normalise_record(record("https://a.example/v1?limit=5&archived=True&n=2&l=1&l=2", passed=passed), REQUESTS)
    assert config["params"] == {"limit": "5", "archived": True, "n": 2, "l": [1, 2]}
    assert config["sent_params"] == {"limit": "5", "archived": "True", "n": "2", "l": ["1", "2"]}


def test_only_the_headers_the_code_set_are_kept() -> None:
    import requests.utils

    defaults = [[k, v] for k, v in requests.utils.default_headers().items()]
    sent = defaults + [["Content-Length", "2"], ["Authorization", "Bearer <token>"], ["User-Agent", "mine"]]
    config = normalise_record(record("https://a.example", headers=sent), REQUESTS)
    assert config["headers"] == {"Authorization": "Bearer <token>", "User-Agent": "mine"}
    host = normalise_record(record("https://a.example", headers=[["Host", "a.example"], ["x-key", "k"]]), HTTPX)
    assert host["headers"] == {"x-key": "k"}


def test_bodies_are_decoded_by_their_content_type() -> None:
    json_body = normalise_record(record("https://a.example", [["Content-Type", "application/json"]],
                                        {"text": '{"a": 1, "b": [true]}'}), REQUESTS)
    assert json_body["data"] == {"a": 1, "b": [True]}
    assert json_body["headers"] == {"Content-Type": "application/json"}
    form = decode_body({"text": "a=1&b=x+y&b=%C3%A9"}, "application/x-www-form-urlencoded")
    assert form == {"a": "1", "b": ["x y", "é"]}
    assert decode_body({"text": "plain words"}, "text/plain") == "plain words"
    assert decode_body({"text": '{"a": 1}'}, None) == '{"a": 1}'  # no content type: kept as text
    assert decode_body({"text": "{broken"}, "application/json") == "{broken"
    assert decode_body({"base64": base64.b64encode(b"\xff\x00").decode()}, None) == "base64:/wA="
    assert decode_body(None, "application/json") is None


def test_multipart_bodies_become_one_string_per_part() -> None:
    import requests

    prepared = requests.Request("POST", "https://a.example", data={"name": "t.txt"},
                                files={"file": ("t.txt", b"This is a test file.")}).prepare()
    content_type = prepared.headers["Content-Type"]
    body = {"base64": base64.b64encode(prepared.body).decode()}
    assert decode_body(body, content_type) == {"name": "t.txt", "file": "This is a test file."}
    config = normalise_record(record("https://a.example", [["Content-Type", content_type]], body, method="POST"), REQUESTS)
    assert config["headers"] == {"Content-Type": "multipart/form-data"}


def test_parse_query_edge_cases() -> None:
    assert parse_query("") == {} and parse_query("&&") == {}
    assert parse_query("a=&b", bare=True) == {"a": "", "b": True}
