"""Every adapter that declares ``capabilities.answers`` delivers a responder's answers to its program:
a program that creates an object (``POST``) and reads it back by the identifier the answer gave
(``GET``) runs to its end in the sandbox, and its Capture records both exchanges with the answers
(the conformance kit's exchange check, :func:`wapii_core.run.conformance.exchange_check`, with a
:class:`~wapii_core.run.conformance.CreateReadResponder`). The identifiers start with a prefix drawn
for each test, so a program cannot have guessed one.

The same programs, answered by the :class:`~wapii_core.mock.SpecMock` derived from WAPIIBench's Asana
description (:func:`~wapii_core.run.conformance.mock_exchange_check`), create a project and read it back
by the identifier the mock made: they send the bearer token the description requires (the mock answers
``401`` without it).

Also here: without a responder (or with an EmptyResponder) nothing changes: the same program stops
at its first request, which is judged as before, and its Capture records no exchanges.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from support import adapters_where, shared_path
from wapii_core.base import plugins
from wapii_core.mock.exchange import EmptyResponder
from wapii_core.run.conformance import EXCHANGE_BASE, ExchangeProgram, exchange_check

PROGRAMS = Path(__file__).parent / "exchange_programs"
ANSWERING = adapters_where(answers=True)


def program_for(adapter) -> ExchangeProgram:
    """The exchange program for the adapter's library (``exchange_programs/<library>.<ext>.txt``)."""
    stem = adapter.capabilities.library.replace("/", "_").replace(".", "_")
    found = sorted(PROGRAMS.glob(f"{stem}.*.txt"))
    assert found, f"no exchange program for the library {adapter.capabilities.library!r} in {PROGRAMS}"
    return ExchangeProgram(adapter.capabilities.library, found[0].read_text(encoding="utf-8"))


@pytest.fixture(scope="module", params=ANSWERING)
def adapter(request):
    instance = plugins.adapters.get(request.param)()
    yield instance
    instance.close()


def test_every_adapter_answers() -> None:
    """All eight built-in adapters declare it (a new adapter without it is told here)."""
    assert set(ANSWERING) == set(plugins.adapters.names())


def test_a_program_creates_and_reads_back_through_the_answers(adapter) -> None:
    prefix = str(random.randrange(100, 999))
    program = program_for(adapter)
    outcome = exchange_check(adapter, [program], prefix=prefix)
    assert outcome.failures == [] and outcome.ok, outcome.failures


def test_a_program_creates_and_reads_back_through_the_mock_of_asana(adapter) -> None:
    """Issue 38's Done-when, one test per adapter: the mock's answers, the identifier it made used."""
    from wapii_core.mock import SpecMock
    from wapii_core.run.conformance import MOCK_BASE, mock_exchange_check

    spec = shared_path("wapiibench", "specs", "asana.yaml")
    outcome = mock_exchange_check(adapter, [program_for(adapter)], spec)
    assert outcome.failures == [] and outcome.ok, outcome.failures

    responder = SpecMock.for_spec(spec).responder(seed=7)
    (capture,) = adapter.execute([program_for(adapter).code.replace("{base}", MOCK_BASE)], [responder])
    assert capture.error is None, capture.detail
    first, second = capture.exchanges
    gid = json.loads(first.response.body)["data"]["gid"]
    assert (first.method, first.url, first.status) == ("POST", f"{MOCK_BASE}/projects", 201)
    assert (second.method, second.url, second.status) == ("GET", f"{MOCK_BASE}/projects/{gid}", 200)
    assert ["Authorization", "Bearer 0/exchange-token"] in [[k.title(), v] for k, v in second.request.headers]
    assert json.loads(second.response.body)["data"]["name"] == "Apollo"
    assert responder.state()["collections"]["projects"][gid]["name"] == "Apollo"


def test_the_record_holds_both_exchanges_with_the_answers(adapter) -> None:
    from wapii_core.run.conformance import CreateReadResponder

    responder = CreateReadResponder("42")
    (capture,) = adapter.execute([program_for(adapter).code.replace("{base}", EXCHANGE_BASE)], [responder])
    assert capture.error is None, capture.detail
    first, second = capture.exchanges
    assert (first.method, first.url, first.status) == ("POST", f"{EXCHANGE_BASE}/projects", 201)
    assert '"name"' in first.request.body and "Apollo" in first.request.body
    assert first.response.body == '{"data": {"gid": "421", "name": "Apollo"}}'
    assert ["Content-Type", "application/json"] in first.response.headers
    assert first.note == "created /api/1.0/projects/421"
    assert (second.method, second.url, second.status) == ("GET", f"{EXCHANGE_BASE}/projects/421", 200)
    assert second.response.body == first.response.body
    assert capture.request is not None  # the first request is still what is judged
    assert responder.store == {"421": {"gid": "421", "name": "Apollo"}}


@pytest.mark.parametrize("responders", [None, "empty"])
def test_without_a_responder_the_first_request_is_judged_as_before(adapter, responders) -> None:
    code = program_for(adapter).code.replace("{base}", EXCHANGE_BASE)
    plain = adapter.execute([code]) if responders is None else adapter.execute([code], [EmptyResponder()])
    (capture,) = plain
    assert capture.exchanges is None
    if capture.request is not None:  # it stopped at (or failed after) its first request, as it always did
        assert capture.request["method"].upper() == "POST"


def test_the_judge_records_the_exchanges_and_keeps_the_verdicts() -> None:
    """A responder per generation (``Judge(responders=...)``) changes what the program is answered,
    never the verdict of its first request; each result records its exchanges."""
    from wapii_core.base.errors import WapiiError
    from wapii_core.base.model import Generation, Setup
    from wapii_core.judge.generations import Judge
    from wapii_core.run.conformance import CreateReadResponder
    from wapii_core.run.runner import load_dataset

    demo = load_dataset("demo", None)
    adapter = plugins.adapters.get("requests_py")()
    try:
        samples = demo.samples[:4]
        generations = [Generation(sample=s.id, code=adapter.render(s.config, Setup.full, s, mode="wire")) for s in samples]
        plain = Judge(adapter, demo, "wire")(generations)
        given = []
        answered = Judge(adapter, demo, "wire", responders=lambda gen: given.append(gen.key) or CreateReadResponder())(generations)
    finally:
        adapter.close()
    assert given == [g.key for g in generations]
    assert [r.verdict for r in answered] == [r.verdict for r in plain] == ["correct"] * 4
    assert all(r.exchanges is None for r in plain)
    for result, sample in zip(answered, samples):
        (exchange,) = result.exchanges
        assert exchange.method == sample.config["method"].upper() and exchange.url.startswith(sample.config["url"])

    class Silent:
        name, capabilities = "silent", type(adapter.capabilities)(answers=False)

    with pytest.raises(WapiiError, match="cannot deliver a responder's answers"):
        Judge(Silent(), demo, "wire", responders=lambda gen: None)  # type: ignore[arg-type]


def test_a_program_that_fails_after_its_answered_request_keeps_its_verdict() -> None:
    """What an answered program does after its first request (here: exits with a failure, as axios
    rejects a 404) is not judged: the verdict is the first-call benchmark's, the exchanges recorded."""
    from wapii_core.base.model import Generation, Setup
    from wapii_core.judge.generations import Judge
    from wapii_core.run.conformance import CreateReadResponder
    from wapii_core.run.runner import load_dataset

    demo = load_dataset("demo", None)
    adapter = plugins.adapters.get("requests_py")()
    try:
        samples = demo.samples[:2]
        generations = [Generation(sample=s.id, code=adapter.render(s.config, Setup.full, s, mode="wire")
                                  + "\nraise SystemExit(3)\n") for s in samples]
        plain = Judge(adapter, demo, "wire")(generations)
        answered = Judge(adapter, demo, "wire", responders=lambda gen: CreateReadResponder())(generations)
    finally:
        adapter.close()
    assert [(r.verdict, r.error) for r in answered] == [(r.verdict, r.error) for r in plain] == [("correct", None)] * 2
    assert all(len(r.exchanges) == 1 for r in answered)


def test_the_check_fails_a_program_that_does_not_use_the_answer() -> None:
    """A program that guesses the identifier, or stops after creating, is told apart from one that reads it."""
    guess = ("import requests\nrequests.post('{base}/projects', json={'data': {'name': 'Apollo'}})\n"
             "requests.get('{base}/projects/12071')\n")
    stop = "import requests\nrequests.post('{base}/projects', json={'data': {'name': 'Apollo'}})\n"
    adapter = plugins.adapters.get("requests_py")()
    try:
        outcome = exchange_check(adapter, [ExchangeProgram("guess", guess), ExchangeProgram("stop", stop)], prefix="555")
    finally:
        adapter.close()
    assert (outcome.total, outcome.passed) == (2, 0)
    assert any("guess: the record holds" in f and "-> 404" in f for f in outcome.failures)
    assert any(f.startswith("stop: the record holds ['POST") for f in outcome.failures)


def test_the_mock_check_fails_a_program_without_the_token_or_that_guesses() -> None:
    """Without the bearer token the mock answers 401 (the program stops or reads nothing); a guessed
    identifier is a 404; both are told apart from the program that reads what it created."""
    from wapii_core.run.conformance import mock_exchange_check

    spec = shared_path("wapiibench", "specs", "asana.yaml")
    bare = ("import requests\nr = requests.post('{base}/projects', json={'data': {'name': 'Apollo'}})\n"
            "requests.get('{base}/projects/' + r.json()['data']['gid'])\n")
    guess = ("import requests\nauth = {'Authorization': 'Bearer t'}\n"
             "requests.post('{base}/projects', json={'data': {'name': 'Apollo'}}, headers=auth)\n"
             "requests.get('{base}/projects/1200000000009', headers=auth)\n")
    adapter = plugins.adapters.get("requests_py")()
    try:
        outcome = mock_exchange_check(adapter, [ExchangeProgram("bare", bare), ExchangeProgram("guess", guess)], spec)
    finally:
        adapter.close()
    assert (outcome.total, outcome.passed) == (2, 0)
    assert any(f.startswith("bare: ") for f in outcome.failures)
    assert any("guess: the record holds" in f and "-> 404" in f for f in outcome.failures), outcome.failures
