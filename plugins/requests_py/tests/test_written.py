"""What the code wrote for a query, read from the call's source (never from the snippet's process)."""

from __future__ import annotations

import pytest

from wapii_requests_py.libraries import REQUESTS
from wapii_core.pyhttp.normalise import normalise_python_request as normalise_record
from wapii_core.pyhttp.source_query import written_query


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
