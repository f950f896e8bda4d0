"""The ``oracle`` programs of fetch_js score 100 % correct: every setup, every comparison mode,
WAPIIBench and the demo dataset (one program serves every mode, see ``render.py``)."""

from __future__ import annotations

from collections import Counter

import pytest

from wapii_core.base.model import Generation, Setup
from wapii_core.run.runner import MODES, Judge


def verdicts(adapter, dataset, setup: Setup, mode: str) -> Counter:
    generations = [Generation(sample=s.id, code=adapter.render(s.config, setup, s, mode=mode)) for s in dataset.samples]
    return Counter(result.verdict for result in Judge(adapter, dataset, mode)(generations))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("setup", list(Setup))
def test_oracle_on_wapiibench(adapter, wapiibench, setup: Setup, mode: str) -> None:
    assert verdicts(adapter, wapiibench, setup, mode) == Counter(correct=395)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("setup", list(Setup))
def test_oracle_on_the_demo(adapter, demo, setup: Setup, mode: str) -> None:
    assert verdicts(adapter, demo, setup, mode) == Counter(correct=len(demo.samples))
