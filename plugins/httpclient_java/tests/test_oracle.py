"""The ``oracle`` programs of httpclient_java score 100 % correct in wire mode (its mode: a query and a
form are text on the wire): a few demo tasks (fast), every setup of the demo and of WAPIIBench (slow)."""

from __future__ import annotations

from collections import Counter

import pytest

from wapii_core.base.model import Generation, Setup
from wapii_core.run.runner import Judge


def verdicts(adapter, dataset, setup: Setup, samples=None) -> Counter:
    chosen = dataset.samples if samples is None else samples
    generations = [Generation(sample=s.id, code=adapter.render(s.config, setup, s)) for s in chosen]
    return Counter(result.verdict for result in Judge(adapter, dataset, "wire")(generations))


def test_oracle_on_a_few_demo_tasks(adapter, demo) -> None:
    chosen = [s for s in demo.samples if s.config.get("data") is not None][:2] + demo.samples[:2]
    assert verdicts(adapter, demo, Setup.full, chosen) == Counter(correct=len(chosen))


@pytest.mark.slow
@pytest.mark.parametrize("setup", list(Setup))
def test_oracle_on_the_demo(adapter, demo, setup: Setup) -> None:
    assert verdicts(adapter, demo, setup) == Counter(correct=len(demo.samples))


@pytest.mark.slow
@pytest.mark.parametrize("setup", list(Setup))
def test_oracle_on_wapiibench(adapter, wapiibench, setup: Setup) -> None:
    assert verdicts(adapter, wapiibench, setup) == Counter(correct=395)
