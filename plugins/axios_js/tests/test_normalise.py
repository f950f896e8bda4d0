"""Captured requests and their neutral configs (metrics.md §3), decoded by real axios in Node."""

from __future__ import annotations

import pytest

from wapii_axios_js.normalise import normalise_request

ACCEPT = "application/json, text/plain, */*"


def config_of(run_one, call: str) -> dict:
    capture = run_one(call)
    assert capture.error is None, capture
    return normalise_request(capture.request)


def test_query_in_url_is_split_into_string_params(run_one) -> None:
    config = config_of(run_one, "axios.get('https://x.example/a%20b?limit=5&flag&q=1&q=2', {params: {limit: 10, other: 1}});\n")
    assert config == {
        "url": "https://x.example/a b",
        "method": "get",
        "headers": {"Accept": ACCEPT},
        "params": {"limit": "5", "other": 1, "flag": True, "q": "2"},
    }


def test_query_in_url_with_null_params_is_a_runtime_error(run_one) -> None:
    assert run_one("axios.get('https://x.example/?a=1', {params: null});\n").error == "runtime_error"


def test_json_body(run_one) -> None:
    config = config_of(run_one, "axios.put('https://x.example/', {a: 1, b: {c: [true, null]}});\n")
    assert config["data"] == {"a": 1, "b": {"c": [True, None]}}
    assert config["headers"] == {"Accept": ACCEPT, "Content-Type": "application/json"}


def test_form_body(run_one) -> None:
    body = "'a=1&b%5B%5D=2&b[]=3&c[d][e]=x&f[0]=y&g=hello+world%21'"
    config = config_of(run_one, f"axios.post('https://x.example/', {body}, {{headers: {{'Content-Type': 'application/x-www-form-urlencoded'}}}});\n")
    assert config["data"] == {"a": "1", "b": ["2", "3"], "c": {"d": {"e": "x"}}, "f": ["y"], "g": "hello world!"}


def test_form_body_built_by_axios(run_one) -> None:
    config = config_of(
        run_one,
        "axios.post('https://x.example/', {a: 'b c', n: 1, o: {p: 'q'}}, {headers: {'Content-Type': 'application/x-www-form-urlencoded'}});\n",
    )
    assert config["data"] == {"a": "b c", "n": "1", "o": {"p": "q"}}
    config = config_of(run_one, "axios.post('https://x.example/', new URLSearchParams({a: 'b', c: 'd'}));\n")
    assert config["data"] == {"a": "b", "c": "d"}
    assert config["headers"]["Content-Type"] == "application/x-www-form-urlencoded;charset=utf-8"


def test_multipart_body(run_one) -> None:
    config = config_of(
        run_one,
        "axios.post('https://x.example/', {file: 'text', name: 't.txt', n: 3}, {headers: {'Content-Type': 'multipart/form-data'}});\n",
    )
    assert config["data"] == {"file": "text", "name": "t.txt", "n": "3"}
    assert config["headers"]["Content-Type"] == "multipart/form-data"


@pytest.mark.parametrize("body", ["null", "''", "0", "false"])
def test_empty_or_null_body_is_an_empty_object(run_one, body: str) -> None:
    assert config_of(run_one, f"axios.post('https://x.example/', {body});\n")["data"] == {}


def test_no_body_no_data(run_one) -> None:
    config = config_of(run_one, "axios.post('https://x.example/');\n")
    assert "data" not in config
    assert config["headers"] == {"Accept": ACCEPT, "Content-Type": "application/x-www-form-urlencoded"}


def test_headers_are_what_axios_sends(run_one) -> None:
    config = config_of(run_one, "axios.get('https://x.example/', {headers: {accept: 'text/html', X: ['a', 'b'], Y: 1, Z: null, W: false}});\n")
    assert config["headers"] == {"Accept": "text/html", "X": "a, b", "Y": "1"}


def test_null_fields_are_dropped() -> None:
    captured = {"url": "u", "method": "get", "headers": {"Accept": ACCEPT}, "params": None, "data": None}
    assert normalise_request(captured) == {"url": "u", "method": "get", "headers": {"Accept": ACCEPT}}


def test_only_judged_keys_are_kept() -> None:
    captured = {"url": "u", "method": "get", "headers": {}, "timeout": 0, "path_params": {"id": "1"}}
    assert normalise_request(captured) == {"url": "u", "method": "get", "headers": {}, "path_params": {"id": "1"}}


def test_not_a_request() -> None:
    with pytest.raises(TypeError):
        normalise_request(["url"])  # type: ignore[arg-type]
