"""Cutting the first aiohttp request out of a program: the requests_py rules, plus a request made in a
``with`` header that the program leaves unfinished after the call's closing parenthesis."""

from __future__ import annotations

from wapii_core.kits.python import extract_python_call
from wapii_aiohttp_py.library import AIOHTTP

HEAD = "# list\nimport aiohttp\n\nasync with aiohttp.ClientSession() as session:\n"
CALL = "    async with session.get('https://a.example/x', params={'n': 1})"
CLOSED = "import aiohttp\nasync with aiohttp.ClientSession() as session:\n" + CALL


def extract(code: str):
    return extract_python_call(code, AIOHTTP)


def test_a_whole_program_is_kept_from_its_first_use_of_aiohttp() -> None:
    code = HEAD + CALL + " as r:\n        print(await r.json())\n"
    assert extract(code).call == code.removeprefix("# list\n").replace("import aiohttp\n\n", "import aiohttp\n")


def test_a_header_left_open_after_the_call_is_closed() -> None:
    for ending in ("", " as", " as r", " as r:", " as r:\n        data = await r.json(", " as r:\n        x = {\n"):
        assert extract(HEAD + CALL + ending).call == CLOSED + ":\n        pass\n", ending


def test_an_awaited_request_is_cut_after_its_call() -> None:
    code = HEAD + "    r = await session.post('https://a.example/x', json={'a': [1, 2]})\n    print(r.json(\n"
    assert extract(code).call.endswith("    r = await session.post('https://a.example/x', json={'a': [1, 2]})\n")


def test_a_session_bound_by_assignment_and_the_module_function() -> None:
    code = "import aiohttp\ns = aiohttp.ClientSession()\nasync with s.get('https://a.example/x')"
    assert extract(code).call.endswith("async with s.get('https://a.example/x'):\n    pass\n")
    code = "import aiohttp\nasync with aiohttp.request('GET', 'https://a.example/x') as r"
    assert extract(code).call.endswith("async with aiohttp.request('GET', 'https://a.example/x'):\n    pass\n")


def test_calls_of_other_objects_are_not_the_request() -> None:
    code = HEAD + "    key = os.environ.get('K')\n" + CALL + " as r:\n        x = ("
    call = extract(code).call
    assert "os.environ.get('K')" in call and call.endswith(CALL + ":\n        pass\n")


def test_a_program_cut_inside_the_call_or_before_it() -> None:
    assert extract(HEAD + "    async with session.get('https://a.example/x', params={").error == "incomplete_request"
    assert extract(HEAD + "    async with session.").error == "incomplete_request"
    assert extract("import json\nprint(1)\n").error == "no_request"
