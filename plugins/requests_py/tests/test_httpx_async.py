"""httpx's async client, judged by the ``httpx_py`` adapter."""

from __future__ import annotations

import pytest

BOOKS_URL = "https://api.larchwood-library.example/v2/books"

PARAMS = "params={'author': 'Okafor', 'genre': 'mystery', 'available': True, 'limit': 10}"


@pytest.fixture(params=["httpx_py"])
def adapter(request, demo):
    from wapii_requests_py.adapter import httpx_adapter

    with httpx_adapter(timeout_s=1.0) as instance:
        yield instance


def test_async_client_in_a_coroutine_run_by_asyncio(judged) -> None:
    code = ("import asyncio\nimport httpx\n\nasync def main():\n"
            "    async with httpx.AsyncClient(headers={'X-Api-Key': '<key>'}) as client:\n"
            f"        response = await client.get('{BOOKS_URL}', {PARAMS})\n"
            "        print(response.json())\n\nasyncio.run(main())\n")
    result = judged(code)
    assert result.verdict == "correct", (result.error_detail, result.arguments)


def test_top_level_await(judged) -> None:
    code = ("import httpx\nasync with httpx.AsyncClient() as client:\n"
            f"    await client.get('{BOOKS_URL}', {PARAMS}, headers={{'X-Api-Key': '<key>'}})\n")
    assert judged(code).verdict == "correct"


def test_truncated_async_call(judged) -> None:
    code = ("import httpx\nasync def main():\n    async with httpx.AsyncClient() as client:\n"
            f"        await client.get('{BOOKS_URL}', params={{")
    assert judged(code).error == "incomplete_request"
