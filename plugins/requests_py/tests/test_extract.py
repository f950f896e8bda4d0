"""Cutting the first request out of a generated Python program (tokenizer and ast, no text markers)."""

from __future__ import annotations

import pytest

from wapii_core.kits.python import extract_python_call as extract_call
from wapii_requests_py.libraries import HTTPX, REQUESTS

START = "# list the books\nimport requests\n\n"


def extract(code: str, library=REQUESTS):
    return extract_call(code, library)


def test_full_completion_keeps_the_import_and_everything_runnable_from_the_call() -> None:
    result = extract(START + "requests.get('https://a.example/books', params={'q': 1})\nprint(response.json())\n```\nThis sends a GET.")
    assert result.error is None
    assert result.call == "import requests\nrequests.get('https://a.example/books', params={'q': 1})\nprint(response.json())\n"


def test_code_before_the_call_is_dropped_except_imports() -> None:
    result = extract("import json\nimport requests\nurl = 'https://a.example'\nrequests.post(url, data=json.dumps({}))\n")
    assert result.call == "import json\nimport requests\nrequests.post(url, data=json.dumps({}))\n"


@pytest.mark.parametrize("completion", [
    "requests.get('https://a.example/books', params={'q': 1",  # open bracket
    "requests.get('https://a.example/bo",  # open string
    "requests.",  # the full setup's starter with nothing after it
    "requests.get('https://a.example/books',\n    headers=",  # dangling keyword
    "with requests.Session() as s:\n",  # a block header without a body
    "s = requests.Session()\ns.headers['A'] = 'b'\ns.get('https://a.example', params={",  # cut before any request call
])
def test_a_program_cut_inside_the_call_is_incomplete(completion: str) -> None:
    assert extract(START + completion).error == "incomplete_request"


def test_a_program_cut_after_the_call_runs_up_to_the_cut() -> None:
    result = extract(START + "r = requests.get('https://a.example')\nprint(r.json(")
    assert result.call == "import requests\nr = requests.get('https://a.example')\n"


@pytest.mark.parametrize("code", [START + "print('no idea')\n", "", "import requests\n", "# requests.get('x')\n"])
def test_no_use_of_the_library_is_no_request(code: str) -> None:
    assert extract(code).error == "no_request"


def test_a_syntax_error_is_kept_for_execution_to_report() -> None:
    result = extract(START + "requests.get('https://a.example', headers=)\nprint(1)\n")
    assert result.error is None and "headers=)" in result.call


def test_prose_before_the_call_is_dropped() -> None:
    result = extract(START + "Here is the call:\nrequests.get('https://a.example')\n")
    assert result.call == "import requests\nrequests.get('https://a.example')\n"


def test_functions_aliases_and_names_imported_from_the_library() -> None:
    code = ("import asyncio\nimport httpx as hx\n\nasync def main():\n    async with hx.AsyncClient() as c:\n"
            "        await c.get('https://a.example')\n\nasyncio.run(main())\n")
    assert extract(code, HTTPX).call == code.replace("as hx\n\n", "as hx\n")
    assert extract("from requests import get\nget('https://a.example')\n").call.endswith("get('https://a.example')\n")
    same_line = extract("import requests; requests.get('https://a.example')\n")
    assert same_line.call == "import requests\nrequests.get('https://a.example')\n"


def test_top_level_await_compiles() -> None:
    code = "import httpx\nasync with httpx.AsyncClient() as c:\n    await c.get('https://a.example')\n"
    assert extract(code, HTTPX).call == code


def test_the_other_library_is_not_this_adapters_call() -> None:
    assert extract("import httpx\nhttpx.get('https://a.example')\n", REQUESTS).error == "no_request"


def test_non_ascii_source_is_cut_at_the_right_places() -> None:
    result = extract("# Bücher\nimport requests\nx = 'ä'; requests.get('https://a.example/ü')\n")
    assert result.call == "import requests\nrequests.get('https://a.example/ü')\n"


def test_the_program_ends_at_a_fence_even_an_indented_one() -> None:
    assert extract(START + "requests.get('https://a.example')\n  ```\nrequests.get(").call == \
        "import requests\nrequests.get('https://a.example')\n"
