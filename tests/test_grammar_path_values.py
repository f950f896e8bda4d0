"""A path value every adapter's grammar allows keeps the URL on the endpoint the grammar chose.

The judge percent-decodes the URL before matching it (metrics.md §4), so a value holding ``%2F``
would add a segment and one holding ``%3F`` or ``%26`` would match no placeholder; an HTTP library
resolves a ``.`` or ``..`` segment (``%2e`` too) away before the request is sent. So for every
endpoint of WAPIIBench, each value below is put into every placeholder, and where the endpoint's
URL regex (what the grammar allows for it, :attr:`Constraint.endpoints`) accepts the literal, the
URL as it is sent (dot segments resolved, by yarl as aiohttp does) and then decoded must resolve,
by the judge's own matching, to that endpoint's path (or to one of :attr:`Endpoint.shadowed_by`,
the better-ranked paths the grammar tells apart after the URL)."""

from __future__ import annotations

import re
from urllib.parse import unquote

import pytest

from support import WAPIIBENCH, grammar_adapter
from wapii_core.base.model import Setup
from wapii_core.grammar.endpoints import load_api
from wapii_core.openapi.index import SpecIndex

ADAPTERS = ("axios_js", "fetch_js", "requests_py", "aiohttp_py")
VALUES = ("a", "a.b", "...", ".a", "a%20b", "a%2Fb", "a%2fb", "%2F", "a%3Fb", "%3f", "a%23b", "a%26b", "%26",
          ".", "..", "%2e", "%2E%2e", ".%2e", "a%2Eb")
STRUCTURE = {"a%2Fb", "a%2fb", "%2F", "a%3Fb", "%3f", "a%23b", "a%26b", "%26", ".", "..", "%2e", "%2E%2e",
             ".%2e", "a%2Eb"}
"""The values a path value may not be: escapes the judge or a URL parser reads as structure, dot segments."""
_PLACEHOLDER = re.compile(r"{[^{}]*}")


def sent_and_judged(url: str) -> str:
    """``url`` as the judge reads it: dot segments resolved (as an HTTP library does before sending),
    then percent-decoded (as every adapter's normaliser does)."""
    yarl = pytest.importorskip("yarl")
    parsed = yarl.URL(url, encoded=True)
    return unquote(str(parsed.with_path(parsed.raw_path, encoded=True)))


@pytest.fixture(scope="module", params=ADAPTERS)
def adapter(request):
    with grammar_adapter(request.param) as made:
        yield made


@pytest.mark.slow
def test_every_path_value_the_grammar_allows_resolves_to_the_endpoint_it_chose(adapter):
    specs = sorted((WAPIIBENCH / "specs").glob("*.yaml"))
    if not specs:
        pytest.skip("WAPIIBench not found (set WAPII_SHARED)")
    allowed: set[str] = set()
    for path in specs:
        index = SpecIndex.load(path)
        api = load_api(index)
        constraint = adapter.constraint(path, Setup.full)
        for endpoint, (_, pattern, _) in zip(api.endpoints, constraint.endpoints):
            for value in VALUES:
                url = api.server + _PLACEHOLDER.sub(value.replace("\\", "\\\\"), endpoint.template)
                if not _PLACEHOLDER.search(endpoint.template) or not re.fullmatch(pattern, f"'{url}'"):
                    continue
                allowed.add(value)
                found = index.candidates(sent_and_judged(url))
                assert found and found[0] in (endpoint.template, *endpoint.shadowed_by), (value, endpoint.template)
    assert {"a", "a.b", "..."} <= allowed  # the check saw values the grammar allows
    assert not allowed & STRUCTURE
