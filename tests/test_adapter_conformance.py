"""Every installed adapter passes the conformance kit (``wapii_core.run.conformance``) on itself: its
oracle programs score 100 % correct in every setup and in each comparison mode it declares, on the demo
dataset (the full setup in the fast tier, the other setups slow: a Java adapter's 26 JVMs take ~10 s
per setup) and on WAPIIBench's stratified subset (slow tier, one test per setup: the tasks of
:func:`stratified.oracle_samples`, every construct a rendering or a normaliser handles; the whole
395-task sweep is ``benchmarks/bench_oracle.py``); the kit's own verdicts are checked against programs
that must fail it."""

from __future__ import annotations

import pytest

from hostile.fixtures import canaries, sandbox_user  # noqa: F401 - fixtures
from stratified import oracle_samples, subset
from support import WAPIIBENCH, adapters_where
from wapii_core.base import plugins
from wapii_core.base.model import Setup
from wapii_core.base.setups import CALL_SETUPS
from wapii_core.run.conformance import HostileProgram, ReplayCorpus, check_adapter, hostile_check, oracle_checks

ADAPTERS = plugins.adapters.names()
"""Whatever is installed: a new adapter is checked without a change here."""


@pytest.fixture(scope="module")
def demo():
    from wapii_core.run.runner import load_dataset

    return load_dataset("demo", None)


@pytest.fixture(scope="module")
def wapiibench():
    from wapii_core.run.runner import load_dataset

    if not (WAPIIBENCH / "dataset.json").is_file():
        pytest.skip(f"WAPIIBench not found at {WAPIIBENCH} (set WAPII_SHARED)")
    return load_dataset("wapiibench", WAPIIBENCH)


@pytest.fixture(scope="module", params=ADAPTERS)
def adapter(request):
    """Each adapter once per module (its sandboxed workers start once)."""
    instance = plugins.adapters.get(request.param)()
    yield instance
    instance.close()


@pytest.mark.parametrize("setup", [s if s is Setup.full else pytest.param(s, marks=pytest.mark.slow) for s in CALL_SETUPS])
def test_the_oracle_conforms_on_the_demo_in_every_mode(adapter, demo, setup) -> None:
    report = check_adapter(adapter, datasets=[demo], setups=[setup])
    assert report.problems() == []
    assert [(c.kind, c.subject) for c in report.checks] == [
        ("oracle", f"demo {setup.value} {mode}") for mode in adapter.capabilities.modes]
    assert all(c.total == c.passed == len(demo.samples) for c in report.checks)


@pytest.fixture(scope="module")
def wapiibench_subset(wapiibench):
    return subset(wapiibench, oracle_samples(wapiibench))


@pytest.mark.slow
@pytest.mark.parametrize("setup", list(CALL_SETUPS))
def test_the_oracle_conforms_on_a_stratified_wapiibench_subset(adapter, wapiibench_subset, setup) -> None:
    report = check_adapter(adapter, datasets=[wapiibench_subset], setups=[setup])
    assert report.problems() == []
    assert [(c.kind, c.subject) for c in report.checks] == [
        ("oracle", f"wapiibench {setup.value} {mode}") for mode in adapter.capabilities.modes]
    assert {c.total for c in report.checks} == {len(wapiibench_subset.samples)} and len(wapiibench_subset.samples) >= 20


def test_a_wrong_rendering_fails_the_oracle_check_and_says_why(demo) -> None:
    """The kit fails what is not correct: the oracle of one adapter rendering another method."""
    real = plugins.adapters.get("requests_py")()

    class Swapped:
        def __getattr__(self, name):
            return getattr(real, name)

        def render(self, config, setup, sample, mode="reference"):
            wrong = {**config, "method": "delete" if config["method"] != "delete" else "get"}
            return real.render(wrong, setup, sample, mode)

    try:
        (outcome,) = oracle_checks(Swapped(), demo, [Setup.full], ["wire"])
    finally:
        real.close()
    assert not outcome.ok and outcome.passed == 0 and outcome.total == len(demo.samples)
    assert len(outcome.failures) == 5
    assert outcome.failures[0].startswith(f"{demo.samples[0].id}: illegal (method illegal: sent 'delete', expected ")


FORGED = {"url": "https://api.example.com/forged", "method": "get", "headers": {"X-Forged": "yes"},
          "params": {"forged": "1"}}


@pytest.mark.slow
def test_hostile_programs_are_held_to_their_expectation(demo) -> None:
    adapter = plugins.adapters.get("requests_py")(timeout_s=1.0)
    try:
        outcome = hostile_check(adapter, demo, [
            HostileProgram("loops", "import requests\nrequests.get(next(x for x in iter(int, 1) if x))\n",
                           "timeout|runtime_error"),
            HostileProgram("sends nothing", "import requests\nx = 1\n", "no_request"),
            HostileProgram("claims a timeout", "import requests\nx = 1\n", "timeout"),
            HostileProgram("sends what it aims at", "import requests\nrequests.get('https://api.example.com/forged', "
                           "params={'forged': '1'}, headers={'X-Forged': 'yes'})\n", "not_correct", forge=FORGED),
            HostileProgram("sends something else", "import requests\nrequests.get('https://api.example.com/forged', "
                           "params={'forged': '2'}, headers={'X-Forged': 'yes'})\n", "not_correct", forge=FORGED),
        ], "python")
    finally:
        adapter.close()
    assert (outcome.total, outcome.passed) == (10, 8)
    assert outcome.failures == ["claims a timeout: expected timeout, got no_request ()",
                                "sends what it aims at: expected not_correct, got illegal ()"]


@pytest.mark.slow
def test_a_replay_corpus_is_compared_verdict_by_verdict(tmp_path, demo) -> None:
    adapter = plugins.adapters.get("requests_py")()
    try:
        right = adapter.render(demo.samples[0].config, Setup.full, demo.samples[0], mode="wire")
    finally:
        adapter.close()
    generations = tmp_path / "g.jsonl"
    generations.write_text(
        f'{{"sample": "{demo.samples[0].id}", "code": {__import__("json").dumps(right)}}}\n'
        f'{{"sample": "{demo.samples[1].id}", "code": "import requests\\n"}}\n')
    def correct(sample):  # every argument the task expects, right
        arguments = {field: {key: "correct" for key in sample.config[field]}
                     for field in ("headers", "params", "data") if sample.config.get(field)}
        return {"error": None, "sample": "correct", "url": "correct", "method": "correct", "endpoint": "correct",
                "arguments": arguments}

    corpus = ReplayCorpus("hand", generations, {s.id: correct(s) for s in demo.samples[:2]})
    (outcome,) = check_adapter("requests_py", datasets=[], replays=[corpus]).checks
    assert (outcome.kind, outcome.total, outcome.passed) == ("replay", 2, 1)
    assert outcome.failures[0].startswith(f"{demo.samples[1].id}: (ours, expected) {{'error': ('no_request', None)")


def _hostile_families() -> dict[str, str]:
    """Installed JavaScript adapter -> its hostile family (``tests/hostile/<family>``: the attacks on
    the runtime written with its library, and the attempts at forging its capture)."""
    from hostile.run_corpus import JS_CORPORA

    return {name: JS_CORPORA[name] for name in adapters_where(language="javascript") if name in JS_CORPORA}


@pytest.mark.slow
@pytest.mark.parametrize("adapter_name", list(_hostile_families()))
def test_the_hostile_family_of_its_language_is_contained(adapter_name, demo, canaries) -> None:
    """The kit's hostile check on the adapter's family: each program ends as it states (one that tries to
    be judged on a request it did not send is not judged on it), every oracle program after one is
    judged correct (a program that tries to impose its request on the next call fails), and no canary
    trips."""
    from hostile.canaries import corpus

    programs = [HostileProgram(p.name, p.aimed_at(), p.expect, forge=p.forge)
                for p in corpus(_hostile_families()[adapter_name], canaries.directory, canaries.port, canaries.marker)]
    adapter = plugins.adapters.get(adapter_name)(workers=1, timeout_s=1.0)
    try:
        report = check_adapter(adapter, datasets=[demo], setups=[], hostile={adapter_name: programs})
    finally:
        adapter.close()
    (outcome,) = report.checks
    assert outcome.total == 2 * len(programs) and report.problems() == []
    assert canaries.violations([report.model_dump_json()]) == []
