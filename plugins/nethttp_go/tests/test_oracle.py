"""The ``oracle`` programs of nethttp_go score 100 % correct in ``wire`` mode (its default: net/http
sends every query value as text, which reference mode compares with typed values): every setup,
WAPIIBench (the full sweep is slow; a subset of every kind of request runs in the fast tier) and the
demo dataset (one program serves every mode, see ``render.py``)."""

from __future__ import annotations

from collections import Counter

import pytest

from wapii_core.base.model import Generation, Setup
from wapii_core.run.runner import Judge


def verdicts(adapter, dataset, samples, setup: Setup, mode: str) -> Counter:
    generations = [Generation(sample=s.id, code=adapter.render(s.config, setup, s)) for s in samples]
    return Counter(result.verdict for result in Judge(adapter, dataset, mode)(generations))


def variety(samples):
    """A few samples of every kind: a query, JSON, a form, multipart, none; every API."""
    picked, seen = [], Counter()
    for sample in samples:
        config = sample.config
        ctype = next((v for k, v in config["headers"].items() if k.lower() == "content-type"), None)
        kind = (sample.api, bool(config.get("params")), str(ctype).split(";")[0], config["method"])
        if seen[kind] < 1:
            picked.append(sample)
        seen[kind] += 1
    return picked


@pytest.mark.parametrize("setup", list(Setup))
def test_oracle_on_a_wapiibench_subset_in_wire_mode(adapter, wapiibench, setup: Setup) -> None:
    samples = variety(wapiibench.samples)
    assert len(samples) >= 20
    assert verdicts(adapter, wapiibench, samples, setup, "wire") == Counter(correct=len(samples))


@pytest.mark.slow
@pytest.mark.parametrize("setup", list(Setup))
def test_oracle_on_wapiibench(adapter, wapiibench, setup: Setup) -> None:
    assert verdicts(adapter, wapiibench, wapiibench.samples, setup, "wire") == Counter(correct=395)


@pytest.mark.parametrize("setup", list(Setup))
def test_oracle_on_the_demo(adapter, demo, setup: Setup) -> None:
    assert verdicts(adapter, demo, demo.samples, setup, "wire") == Counter(correct=len(demo.samples))
