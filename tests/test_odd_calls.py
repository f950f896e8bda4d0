"""Odd but honest calls are judged as the published WAPIIBench pipeline judged them.

``tests/odd_calls/axios_js/<api>/<index:04d>_code.js``: programs (on the bundled demo dataset) that
call axios in ways a model writes and axios itself accepts: a URL that is an object, a number, a
list, ``null``, ``undefined`` or missing; a config object as the first argument; ``axios(config)``,
``axios(url, config)``, ``axios.request``, ``axios.default``, instances from ``axios.create``;
arguments in the wrong order; extra arguments. ``tests/odd_calls/axios_js.reference.json`` holds
what the published pipeline gives each one (recorded by ``tests/odd_calls/record_reference.py``:
the real axios behind axios-mock-adapter in plain Node, the reference's normalisation, metrics.md's
rules). A user's ``wapii run --backend replay`` must give every one of those verdicts (the
conformance kit's replay check, ``wapii_core.run.conformance``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wapii_core.run.conformance import ReplayCorpus, replay_check

FAMILY = Path(__file__).parent / "odd_calls"


@pytest.mark.slow
def test_every_odd_call_gets_the_published_verdict() -> None:
    """The conformance kit's replay check: ``wapii run --backend replay`` over the family, verdict by verdict."""
    reference = json.loads((FAMILY / "axios_js.reference.json").read_text())
    programs = {f"{p.parent.name}/{int(p.name.split('_')[0])}" for p in (FAMILY / "axios_js").glob("*/*_code.js")}
    assert programs == set(reference)
    corpus = ReplayCorpus.from_reference("odd calls", FAMILY / "axios_js", FAMILY / "axios_js.reference.json")
    outcome, _results = replay_check("axios_js", corpus)
    assert outcome.failures == [] and outcome.passed == outcome.total == len(reference)


def test_the_family_exercises_executed_odd_urls() -> None:
    """Most programs run and are judged (not refused): the family is about calls axios accepts."""
    reference = json.loads((FAMILY / "axios_js.reference.json").read_text())
    executed = [s for s, v in reference.items() if v["error"] is None]
    assert len(executed) >= 20
    assert sum(v["url"] == "illegal" for v in reference.values()) >= 7
