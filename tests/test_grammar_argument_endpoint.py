"""After an argument-setup starter, every adapter's grammar offers the arguments of the endpoints of
the path the judge resolves the starter's URL to (its first candidate, metrics.md §4), and of no
other endpoint whose template also matches the URL: with the starter's method where the starter names
one (axios, requests, httpx, aiohttp), any method of that path where it does not (fetch)."""

from __future__ import annotations

import re

import pytest

from support import WAPIIBENCH, adapters_where, grammar_adapter
from wapii_core.grammar.endpoints import load_api
from wapii_core.base.model import Setup
from wapii_core.openapi.index import SpecIndex

ADAPTERS = adapters_where(constrained=True)


@pytest.fixture(scope="module")
def wapiibench():
    if not (WAPIIBENCH / "dataset.json").is_file():
        pytest.skip("WAPIIBench not found (set WAPII_SHARED)")
    from wapii_core.datasets.loader import load_wapiibench

    return load_wapiibench(WAPIIBENCH)


@pytest.fixture(scope="module", params=ADAPTERS)
def adapter(request):
    with grammar_adapter(request.param) as made:
        yield made


def offered(grammar: str) -> set[str]:
    """The rules a completion grammar's start rule offers (``start: WS? (a | b)``)."""
    start = next(line for line in grammar.splitlines() if line.startswith("start:"))
    return set(re.findall(r"[\w:]+", start.split("(", 1)[1]))


@pytest.mark.slow
def test_the_starter_url_offers_only_the_endpoints_of_the_path_the_judge_resolves_it_to(adapter, wapiibench):
    shadowed = 0
    for api, path in wapiibench.specs.items():
        spec = SpecIndex.load(path)
        constraint = adapter.constraint(path, Setup.argument)
        method_in_starter = all(method for method, _, _ in constraint.endpoints)  # "": a call that names its URL first
        endpoints = load_api(spec).endpoints
        assert len(endpoints) == len(constraint.endpoints)
        for sample in (s for s in wapiibench.samples if s.api == api):
            starter = adapter.prompt(sample, Setup.argument, wapiibench).starter
            completion = constraint.for_completion(starter)
            assert completion is not None, sample.id
            first = spec.candidates(sample.config["url"])[0]
            expected = {rule for endpoint, (_, _, rule) in zip(endpoints, constraint.endpoints)
                        if endpoint.template == first
                        and (endpoint.method == sample.config["method"] or not method_in_starter)}
            assert offered(completion.grammar) == expected, sample.id
            shadowed += len(spec.candidates(sample.config["url"])) > 1
    assert shadowed  # some starters' URLs match a wider template too (the case this is about)
