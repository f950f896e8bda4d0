"""Odd calls to requests and httpx: what the library accepts is judged, what it refuses is the
runtime error with the library's own message (the same call raised here, where it never reaches
the network, gives the message expected)."""

from __future__ import annotations

import importlib

import pytest

URL = "https://api.larchwood-library.example/v2/books"

REFUSED = [
    "{lib}.delete({'method': 'DELETE', 'headers': {'Content-Type': 'application/json'}, 'body': {'gid': 1}})",
    "{lib}.get(12345)",
    "{lib}.get(None)",
    "{lib}.get()",
    f"{{lib}}.post({{'title': 'Dune'}}, '{URL}')",
    f"{{lib}}.get('{URL}', {{'q': 'dune'}}, 'extra', 42)",
    f"{{lib}}.get(['{URL}'])",
]
ACCEPTED = [
    f"{{lib}}.request('GET', '{URL}', params={{'q': 'dune'}})",
    f"{{lib}}.request(method='GET', url='{URL}')",
    f"{{lib}}.get(url='{URL}', params={{'q': 'dune'}})",
]
BYTES_URL = f"{{lib}}.get({URL.encode()!r})"
"""requests decodes a bytes URL; httpx refuses one (``Invalid type for url``)."""


def library_message(module: str, call: str) -> str:
    """``Kind: message`` of what the library raises for ``call`` (before any network use)."""
    namespace = {module: importlib.import_module(module)}
    try:
        eval(call.replace("{lib}", module), namespace)  # noqa: S307 - the test's own calls, refused before sending
    except Exception as exc:  # noqa: BLE001 - whatever the library raises is the expectation
        return f"{type(exc).__name__}: {exc}"
    pytest.fail(f"{module} accepted {call}")


@pytest.mark.parametrize("call", REFUSED)
def test_a_call_the_library_refuses_is_a_runtime_error_with_its_message(adapter, judged, call: str) -> None:
    module = adapter.library.module
    result = judged(f"import {module}\n{call}\n", sample="larchwood/1")
    assert (result.error, result.verdict) == ("runtime_error", "nonexecutable")
    assert library_message(module, call) in result.error_detail, result.error_detail


@pytest.mark.parametrize("call", ACCEPTED)
def test_a_call_the_library_accepts_is_judged(adapter, judged, call: str) -> None:
    module = adapter.library.module
    result = judged(f"import {module}\n{call}\n", sample="larchwood/1")
    assert result.error is None, result.error_detail
    assert result.url == "correct"


def test_a_bytes_url_is_what_each_library_makes_of_it(adapter, judged) -> None:
    module = adapter.library.module
    result = judged(f"import {module}\n{BYTES_URL}\n", sample="larchwood/1")
    if module == "requests":
        assert (result.error, result.url) == (None, "correct"), result.error_detail
    else:
        assert result.error == "runtime_error"
        assert library_message(module, BYTES_URL) in result.error_detail, result.error_detail
