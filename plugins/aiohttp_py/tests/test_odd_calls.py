"""Odd aiohttp calls: what aiohttp accepts is judged, what it refuses is the runtime error with its
own message (the same call raised here, where it fails before any network use, gives the message)."""

from __future__ import annotations

import asyncio

import pytest

URL = "https://api.larchwood-library.example/v2/books"
HEAD = "import aiohttp\n\nasync with aiohttp.ClientSession() as session:\n"

REFUSED = [
    "session.delete({'method': 'DELETE', 'headers': {'Content-Type': 'application/json'}, 'body': {'gid': 1}})",
    "session.get(12345)",
    "session.get(None)",
    "session.get()",
    f"session.post({{'title': 'Dune'}}, '{URL}')",
    f"session.get(['{URL}'])",
    f"session.get('{URL}', {{'q': 'dune'}})",  # a second positional argument
]
ACCEPTED = [
    f"session.request('GET', '{URL}', params={{'q': 'dune'}})",
    f"session.get(url='{URL}', params={{'q': 'dune'}})",
]


def aiohttp_message(call: str) -> str:
    """``Kind: message`` of what aiohttp raises for ``call`` (before any network use)."""
    import aiohttp

    async def attempt() -> str:
        async with aiohttp.ClientSession() as session:
            try:
                async with eval(call, {"session": session}):  # noqa: S307 - the test's own calls
                    pass
            except Exception as exc:  # noqa: BLE001 - whatever aiohttp raises is the expectation
                return f"{type(exc).__name__}: {exc}"
        pytest.fail(f"aiohttp accepted {call}")

    return asyncio.run(attempt())


@pytest.mark.parametrize("call", REFUSED)
def test_a_call_aiohttp_refuses_is_a_runtime_error_with_its_message(judged, call: str) -> None:
    result = judged(HEAD + f"    async with {call} as response:\n        print(response.status)\n", sample="larchwood/1")
    assert (result.error, result.verdict) == ("runtime_error", "nonexecutable")
    assert aiohttp_message(call) in result.error_detail, result.error_detail


@pytest.mark.parametrize("call", ACCEPTED)
def test_a_call_aiohttp_accepts_is_judged(judged, call: str) -> None:
    result = judged(HEAD + f"    async with {call} as response:\n        print(response.status)\n", sample="larchwood/1")
    assert result.error is None, result.error_detail
    assert result.url == "correct"
