"""What the code wrote for a query, read from the call's source (never from the snippet's process)."""

from __future__ import annotations

import pytest

from wapii_requests_py.libraries import REQUESTS
from wapii_core.kits.python import normalise_python_request as normalise_record, written_query


@pytest.mark.parametrize(("call", "expected"), [
    ("import requests\nrequests.get('https://a.example/x?q=1', params={'limit': 50, 'on': True})\n",
     {"url": "https://a.example/x?q=1", "params": {"limit": 50, "on": True}}),
    ("import requests\nparams = {'limit': 50}\nrequests.get('https://a.example/x', params=params)\n",
     {"url": "https://a.example/x", "params": {"limit": 50}}),
    ("import httpx\nwith httpx.Client() as c:\n    c.request('GET', 'https://a.example/x', params=[('a', 1), ('a', 2)])\n",
     {"url": "https://a.example/x", "params": {"a": [1, 2]}}),
    ("import os, requests\nkey = os.environ.get('K')\nrequests.get('https://a.example/x', params={'k': 1})\n",
     {"url": "https://a.example/x", "params": {"k": 1}}),
    ("import requests\nparams = {k: 50 for k in 'a'}\nrequests.get(URL, params=params)\n", {"url": None, "params": None}),
    ("import requests\nrequests.get(\n", {}),
])
def test_typed_values_come_from_literals_in_the_source(call: str, expected: dict) -> None:
    assert written_query(call) == expected


def test_a_value_computed_at_run_time_counts_as_the_string_sent() -> None:
    record = {"method": "GET", "url": "https://a.example/x?limit=50", "headers": [], "body": None,
              "passed": written_query("import requests\nrequests.get('https://a.example/x', params=dict(limit=50))\n")}
    assert normalise_record(record, REQUESTS)["params"] == {"limit": "50"}


def test_an_encoded_slash_stays_encoded_for_wire_mode() -> None:
    record = {"method": "GET", "url": "https://a.example/tasks%2F12%20x", "headers": [], "body": None, "passed": {}}
    config = normalise_record(record, REQUESTS)
    assert config["url"] == "https://a.example/tasks/12 x"  # the paper's rule: everything decoded
    assert config["sent_url"] == "https://a.example/tasks%2F12 x"  # what a server reads as one segment


URL = "'https://a.example/x'"
CALL = f"requests.get({URL}, params={{'limit': 50}})"
SENT = f"requests.get({URL} + '?limit=50')"


@pytest.mark.parametrize("code", [
    f"import requests\nif False:\n    {CALL}\n{SENT}\n",
    f"import requests\nwhile False:\n    {CALL}\nrequests.get({URL}, {{'limit': '50'}})\n",
    f"import requests\ndef never():\n    {CALL}\nsend = requests.get\nsend({URL}, params={{'limit': '50'}})\n",
    f"import requests\ndef main():\n    return\n    {CALL}\nmain()\n{SENT}\n",
    f"import requests, contextlib\nwith contextlib.suppress(ZeroDivisionError):\n    1 / 0\n    {CALL}\n{SENT}\n",
    f"import requests\ntry:\n    1 / 0\n    {CALL}\nexcept ZeroDivisionError:\n    {SENT}\n",
    f"import requests\nr = {CALL} if False else {SENT}\n",
    f"import requests\nr = False and {CALL}\n{SENT}\n",
    f"import requests\nsend = lambda: {CALL}\n{SENT}\n",
    f"import requests\n[{CALL} for _ in []]\n{SENT}\n",
    f"import asyncio, aiohttp\nasync def main():\n    async with aiohttp.ClientSession() as s:\n"
    f"        async with s.get({URL}, params={{'limit': 50}}) as r:\n            pass\nprint(main())\n{SENT}\n",
    f"import requests\ndef main():\n    {CALL}\nmain = print\nmain()\n{SENT}\n",
    f"import requests, functools\n@functools.cache\ndef main():\n    {CALL}\n{SENT}\n",
    f"import requests\n__name__ = 'x'\ndef main():\n    {CALL}\nif __name__ == '__main__':\n    main()\n{SENT}\n",
    f"import requests\nif __name__ == '__main__':\n    pass\nelse:\n    {CALL}\n{SENT}\n",
    f"import requests\nsend = requests.get\ntry:\n    {CALL[:-1]}, bogus=1)\nexcept TypeError:\n"
    f"    send({URL}, params={{'limit': '50'}})\n",
    f"import requests\nclass Quiet:\n    def __enter__(self):\n        return self\n"
    f"    def __exit__(self, *exc):\n        return True\nwith Quiet():\n    {CALL[:-1]}, bogus=1)\n{SENT}\n",
    f"import requests, httpx, contextlib\nhttpx.Client = contextlib.suppress\nwith httpx.Client(TypeError):\n"
    f"    {CALL[:-1]}, bogus=1)\n{SENT}\n",
], ids=["if False", "while False", "function never called", "after a return", "after a swallowed raise",
        "in a try", "conditional expression", "short circuit", "lambda", "comprehension", "coroutine never run",
        "function rebound", "decorated function", "__name__ rebound", "else of the main guard",
        "a handler that sends", "a context of its own", "a library's context replaced"])
def test_a_call_that_may_not_run_types_nothing(code: str) -> None:
    assert written_query(code)["params"] is None


@pytest.mark.parametrize("code", [
    f"import requests\ndef main():\n    {CALL}\nmain()\n",
    f"import requests\ndef main():\n    {CALL}\nif __name__ == '__main__':\n    main()\n",
    f"import asyncio, aiohttp\nasync def main():\n    async with aiohttp.ClientSession() as s:\n"
    f"        async with s.get({URL}, params={{'limit': 50}}) as r:\n            pass\nasyncio.run(main())\n",
    f"import aiohttp\nasync with aiohttp.ClientSession() as session:\n    limit = 50\n"
    f"    async with session.get({URL}, params={{'limit': 50}}) as response:\n        pass\n",
    f"import requests\nresponse = {CALL}\nprint(response.json())\n",
    f"import requests, logging\ntry:\n    response = {CALL}\n    response.raise_for_status()\n"
    f"except requests.RequestException as e:\n    print(f'failed: {{e}}')\n    logging.error(e)\n",
    f"import requests\nwith requests.Session() as session:\n    session.get({URL}, params={{'limit': 50}})\n",
    f"from httpx import Client\nwith Client() as client:\n    client.get({URL}, params={{'limit': 50}})\n",
], ids=["function called", "main guard", "asyncio.run", "top-level async with", "assigned", "try with print",
        "session", "client imported by name"])
def test_a_call_that_surely_runs_types_its_query(code: str) -> None:
    assert written_query(code)["params"] == {"limit": 50}
