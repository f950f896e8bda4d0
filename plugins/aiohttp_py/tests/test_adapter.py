"""aiohttp programs judged end to end: extracted, run in the sandboxed pool, captured at aiohttp's
connector, normalised and judged (demo API, ``larchwood/0``: GET /books with four query values, an
API key header; ``larchwood/2``: POST /books with a JSON body)."""

from __future__ import annotations

BOOKS = "https://api.larchwood-library.example/v2/books"
PARAMS = "params={'author': 'Okafor', 'genre': 'mystery', 'available': 'true', 'limit': 10}"
KEY = "headers={'X-Api-Key': '<key>'}"
HEAD = "# search\nimport aiohttp\n\nasync with aiohttp.ClientSession() as session:\n"


def test_top_level_session_and_request_in_both_modes(judged) -> None:
    code = HEAD + f"    async with session.get('{BOOKS}', {PARAMS}, {KEY}) as response:\n        print(await response.json())\n"
    for mode in ("wire", "reference"):
        result = judged(code, mode=mode)
        assert result.verdict == "correct", (mode, result.error_detail, result.arguments)


def test_a_coroutine_run_by_asyncio_and_the_module_level_request(judged) -> None:
    in_main = ("import asyncio\nimport aiohttp\n\nasync def main():\n    async with aiohttp.ClientSession() as s:\n"
               f"        resp = await s.get('{BOOKS}', {PARAMS}, {KEY})\n        print(resp.status)\n\n"
               "asyncio.run(main())\n")
    assert judged(in_main).verdict == "correct"
    module_level = f"import aiohttp\nasync with aiohttp.request('GET', '{BOOKS}', {PARAMS}, {KEY}) as r:\n    pass\n"
    assert judged(module_level).verdict == "correct"


def test_a_program_that_ends_after_the_calls_parenthesis_still_issues_it(judged) -> None:
    """A constrained completion ends there; so does one cut off in the response's block."""
    call = f"    async with session.get('{BOOKS}', {PARAMS}, {KEY})"
    assert judged(HEAD + call).verdict == "correct"
    assert judged(HEAD + call + " as resp:\n        data = await resp.json(").verdict == "correct"
    assert judged(HEAD + call + " as resp").verdict == "correct"


def test_a_program_cut_inside_the_call_or_without_aiohttp(judged) -> None:
    assert judged(HEAD + f"    async with session.get('{BOOKS}', params={{'author': ").error == "incomplete_request"
    assert judged("import requests\nrequests.get('https://x.example')\n").error == "no_request"


def test_an_earlier_get_call_is_not_taken_for_the_request(judged) -> None:
    code = ("import os\nimport aiohttp\n\nasync with aiohttp.ClientSession() as session:\n"
            "    key = os.environ.get('KEY', '<key>')\n"
            f"    async with session.get('{BOOKS}', {PARAMS}, headers={{'X-Api-Key': key}}) as r:\n        x = (")
    assert judged(code).verdict == "correct"


def test_a_boolean_query_value_is_refused_by_aiohttp(judged) -> None:
    code = HEAD + f"    async with session.get('{BOOKS}', params={{'available': True}}, {KEY}) as r:\n        pass\n"
    result = judged(code)
    assert result.error == "runtime_error" and "TypeError" in result.error_detail


def test_a_number_written_as_a_string_differs_by_mode(judged) -> None:
    code = HEAD + (f"    async with session.get('{BOOKS}', params={{'author': 'Okafor', 'genre': 'mystery', "
                   f"'available': 'true', 'limit': '10'}}, {KEY}) as r:\n        pass\n")
    assert judged(code, mode="wire").verdict == "correct"
    reference = judged(code, mode="reference")
    assert reference.verdict == "wrong" and reference.arguments["params"]["limit"] == "incorrect_value"


def test_json_form_chunked_and_compressed_bodies(judged) -> None:
    body = ("{'title': 'The Salt Orchard', 'isbn': '978-1-4028-9462-6', 'contributors': [{'name': 'Mara Lindqvist', "
            "'role': 'author'}, {'name': 'Tomas Reyes', 'role': 'translator'}], 'genres': ['fiction', 'history'], "
            "'publication': {'year': 2019, 'publisher': {'name': 'Northgate Press', 'city': 'Leeds'}}}")
    auth = "headers={'Authorization': 'Bearer <token>'}"
    as_json = HEAD + f"    async with session.post('{BOOKS}', json={body}, {auth}) as r:\n        pass\n"
    assert judged(as_json, "larchwood/2").verdict == "correct"
    chunked = HEAD + f"    async with session.post('{BOOKS}', json={body}, {auth}, chunked=True) as r:\n        pass\n"
    assert judged(chunked, "larchwood/2").verdict == "correct"
    form = HEAD + f"    async with session.post('{BOOKS}', data={{'title': 'The Salt Orchard'}}, {auth}) as r:\n        pass\n"
    result = judged(form, "larchwood/2")
    assert result.verdict == "wrong" and result.arguments["data"]["title"] == "incorrect_value"


def test_header_names_are_case_insensitive_on_the_wire_only(judged) -> None:
    code = HEAD + f"    async with session.get('{BOOKS}', {PARAMS}, headers={{'x-api-key': '<key>'}}) as r:\n        pass\n"
    assert judged(code, mode="wire").verdict == "correct"
    assert judged(code, mode="reference").verdict != "correct"


def test_the_librarys_own_headers_are_not_the_codes(adapter, judged) -> None:
    code = HEAD + f"    async with session.post('{BOOKS}') as r:\n        pass\n"
    result = judged(code, "larchwood/2")
    assert result.request["headers"] == {}  # Accept, Accept-Encoding, User-Agent, octet-stream Content-Type
