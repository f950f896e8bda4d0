"""Constrained generation: the grammar logits processor, the constrained decoder on wapii-tiny, the backend."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import pytest
import torch

from wapii_core.base.errors import WapiiError
from wapii_core.grammar import accepts, get_engine
from wapii_core.base.model import GenerationRequest, Sample, Setup
from wapii_core.base.protocols import BackendOptions, Dataset, RunContext
from wapii_hf_models.logits import GrammarLogitsProcessor

REPO = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("WAPII_SHARED") or REPO.parent / "shared")
PETSTORE = SHARED / "wapiibench" / "grammar-cases" / "petstore-expanded-modified.yaml"
EOS = 9
TASKS = [("List pets tagged cat", "https://petstore.swagger.io/v2/pets", "get"),
         ("Delete the pet 7", "https://petstore.swagger.io/v2/pets/7", "delete"),
         ("Add a pet named Rex", "https://petstore.swagger.io/v2/pets", "post"),
         ("Get the customer bob", "https://petstore.swagger.io/v2/customers/bob", "get"),
         ("Ping customer bob", "https://petstore.swagger.io/v2/customers/bob/ping", "post"),
         ("Add a food", "https://petstore.swagger.io/v2/foods", "post")]


class Script:
    """A matcher that allows the tokens of a fixed script, one set per step."""

    def __init__(self, steps: list[set[int]]) -> None:
        self.steps = steps
        self.at = 0
        self.error = False

    def fill_mask(self, bitmask, row):
        allowed = self.steps[self.at] if self.at < len(self.steps) else {EOS}
        bitmask[row].zero_()
        for token in allowed:
            word, bit = divmod(token, 32)
            bitmask[row, word] |= torch.tensor(1 << bit, dtype=torch.int64).to(torch.int32)

    def consume(self, token):
        ok = self.at < len(self.steps) and token in self.steps[self.at]
        self.at += 1
        self.error = self.error or not ok
        return ok

    def is_error(self):
        return self.error


def finite(scores: torch.Tensor, row: int) -> set[int]:
    return {i for i, v in enumerate(scores[row].tolist()) if math.isfinite(v)}


def test_the_mask_keeps_allowed_tokens_and_a_row_ends_when_its_end_token_is_sampled():
    proc = GrammarLogitsProcessor([Script([{1, 2}, {3}]), None], vocab_size=40, eos_id=EOS)
    ids = torch.zeros((2, 5), dtype=torch.long)
    scores = proc(ids, torch.zeros((2, 40)))
    assert finite(scores, 0) == {1, 2} and finite(scores, 1) == set(range(40))
    ids = torch.cat([ids, torch.tensor([[2], [5]])], dim=1)
    assert finite(proc(ids, torch.zeros((2, 40))), 0) == {3}
    ids = torch.cat([ids, torch.tensor([[3], [5]])], dim=1)
    assert finite(proc(ids, torch.zeros((2, 40))), 0) == {EOS}  # the grammar is complete: only the end
    ids = torch.cat([ids, torch.tensor([[EOS], [5]])], dim=1)
    assert finite(proc(ids, torch.zeros((2, 40))), 0) == {EOS}  # a finished row keeps one finite logit
    assert proc.outcomes() == ["stop", "length"] and len(proc.mask_seconds) == 4


def test_rows_that_cannot_go_on_are_steered_to_the_end_and_say_why():
    proc = GrammarLogitsProcessor([Script([set()]), Script([{1}]), Script([{1}])], vocab_size=64, eos_id=40,
                                  failed=[False, True, False])
    scores = proc(torch.zeros((3, 2), dtype=torch.long), torch.zeros((3, 70)))
    assert all(finite(scores, row) == {40} for row in (0, 1)) and finite(scores, 2) == {1}
    assert proc.outcomes() == ["unsatisfiable", "unsatisfiable", "length"]
    late = GrammarLogitsProcessor([Script([{1}] * 5)], vocab_size=64, eos_id=40, time_limit=0.0)
    assert finite(late(torch.zeros((1, 2), dtype=torch.long), torch.zeros((1, 64))), 0) == {40}
    assert late.outcomes() == ["timeout"]


def test_an_end_token_in_the_top_word_of_the_mask_is_allowed():
    proc = GrammarLogitsProcessor([Script([{1}])], vocab_size=64, eos_id=63, failed=[True])
    assert finite(proc(torch.zeros((1, 1), dtype=torch.long), torch.zeros((1, 64))), 0) == {63}


@dataclass
class SettingContext(RunContext):
    setting: str = "unconstrained"


@pytest.fixture(scope="module")
def petstore_dataset() -> Dataset:
    if not PETSTORE.is_file():
        pytest.skip(f"grammar cases not found at {PETSTORE} (set WAPII_SHARED)")
    samples = [Sample(api="petstore", index=i, task=task, config={"url": url, "method": method, "headers": {}})
               for i, (task, url, method) in enumerate(TASKS)]
    return Dataset("petstore", samples, {"petstore": PETSTORE}, {"petstore": "Petstore"}, PETSTORE, "0" * 64)


@pytest.fixture(scope="module")
def axios():
    from wapii_axios_js.adapter import AxiosAdapter

    adapter = AxiosAdapter()
    yield adapter
    adapter.close()


def requests(dataset, adapter, setup):
    return [GenerationRequest(sample=s, prompt=adapter.prompt(s, setup, dataset)) for s in dataset.samples]


@pytest.mark.parametrize("setup", [Setup.full, Setup.argument])
@pytest.mark.parametrize("temperature", ["0", "0.9"])
def test_constrained_programs_keep_to_the_grammar(petstore_dataset, axios, tiny_dir, setup, temperature):
    from wapii_hf_models.backend import HFBackend

    context = SettingContext(petstore_dataset, axios, setup, setting="constrained")
    options = {"max_new_tokens": "48", "no_cache": "true", "batch_size": "3", "temperature": temperature,
               "seed": "3", "constraint_references": "false"}
    backend = HFBackend(BackendOptions(model="wapii-tiny", extra=options), context)
    try:
        reqs = requests(petstore_dataset, axios, setup)
        generations = {g.sample: g for g in backend.generate(reqs)}
    finally:
        backend.close()
    constraint = axios.constraint(PETSTORE, setup, references=False)
    engine = get_engine()
    for req in reqs:
        gen = generations[req.sample.id]
        assert gen.error is None and gen.finish_reason in ("stop", "length")
        text = constraint.prefix(req.prompt.starter) + gen.code[len(req.prompt.starter):]
        if gen.finish_reason == "stop":
            assert accepts(constraint.grammar, text), text
            assert axios.extract(gen.code).call is not None
        else:  # cut by the token limit: still a prefix of a legal call
            matcher = engine.compile(constraint.grammar, engine.byte_tokenizer()).matcher()
            assert all(matcher.consume(b) for b in text.encode()), text


def test_the_constrained_setting_changes_the_cache_key_and_needs_a_base_model_or_prefill(petstore_dataset, axios, tiny_dir):
    from wapii_hf_models.backend import HFBackend

    reqs = requests(petstore_dataset, axios, Setup.full)[:2]
    plain = HFBackend(BackendOptions(model="wapii-tiny", extra={"max_new_tokens": "8"}),
                      SettingContext(petstore_dataset, axios, Setup.full))
    constrained = HFBackend(BackendOptions(model="wapii-tiny", extra={"max_new_tokens": "8"}),
                            SettingContext(petstore_dataset, axios, Setup.full, setting="constrained"))
    try:
        keys = [b._key(b._item(reqs[0])) for b in (plain, constrained)]
        assert keys[0] != keys[1]
        assert "constraint_references" in constrained.describe() and "constraint_references" not in plain.describe()
        assert constrained.supports_constraints
    finally:
        plain.close()
        constrained.close()
    with pytest.raises(WapiiError, match="base model"):
        HFBackend(BackendOptions(model="wapii-tiny", extra={"chat": "true", "prefill": "false"}),
                  SettingContext(petstore_dataset, axios, Setup.full, setting="constrained"))


def test_a_starter_outside_the_grammar_is_unsatisfiable(petstore_dataset, axios, tiny_dir):
    from wapii_hf_models.backend import HFBackend

    sample = Sample(api="petstore", index=9, task="bad", config={"url": "https://elsewhere.org/x", "method": "get",
                                                                 "headers": {}})
    dataset = Dataset("petstore", [sample], petstore_dataset.specs, petstore_dataset.display_names,
                      PETSTORE, "0" * 64)
    backend = HFBackend(BackendOptions(model="wapii-tiny", extra={"max_new_tokens": "8", "no_cache": "true"}),
                        SettingContext(dataset, axios, Setup.argument, setting="constrained"))
    try:
        (gen,) = backend.generate(requests(dataset, axios, Setup.argument))
    finally:
        backend.close()
    assert gen.finish_reason == "unsatisfiable"


@pytest.fixture(scope="module")
def wapiibench():
    if not (SHARED / "wapiibench" / "dataset.json").is_file():
        pytest.skip("WAPIIBench not found (set WAPII_SHARED)")
    from wapii_core.datasets.loader import load_wapiibench

    return load_wapiibench(SHARED / "wapiibench")


@pytest.fixture(scope="module", params=["axios_js", "fetch_js", "requests_py", "aiohttp_py"])
def any_adapter(request):
    from wapii_core.base import plugins

    if request.param not in plugins.adapters.names():
        pytest.skip(f"adapter {request.param} is not installed")
    adapter = plugins.adapters.get(request.param)()
    yield adapter
    adapter.close()


@pytest.mark.parametrize("setup", [Setup.full, Setup.argument])
def test_constrained_wapii_tiny_produces_no_illegal_url_method_or_argument(wapiibench, any_adapter, tiny_dir, setup):
    """The fast version of ``bench_constraints.py --legality``: every 4th WAPIIBench sample, literal
    values and compact whitespace (so that some calls end within the token budget), judged as a
    constrained run is. Some samples must be executable, or the test would prove nothing."""
    from wapii_core.grammar.audit import own_endpoint_illegal
    from wapii_core.run.runner import Judge
    from wapii_core.spec.index import SpecIndex
    from wapii_hf_models.backend import HFBackend

    subset = Dataset("wapiibench", wapiibench.samples[::4], wapiibench.specs, wapiibench.display_names,
                     wapiibench.source, wapiibench.sha256, wapiibench.prompts_dir)
    options = {"max_new_tokens": "250", "no_cache": "true", "batch_size": "25", "constraint_references": "false",
               "constraint_compact": "true"}
    backend = HFBackend(BackendOptions(model="wapii-tiny", extra=options),
                        SettingContext(subset, any_adapter, setup, setting="constrained"))
    try:
        generations = list(backend.generate(requests(subset, any_adapter, setup)))
    finally:
        backend.close()
    results = Judge(any_adapter, subset, constrained=True)(generations)
    assert len(results) == len(subset.samples)
    executable = [r for r in results if r.verdict != "nonexecutable"]
    assert executable, [g.finish_reason for g in generations]
    for result in results:
        if result.verdict == "nonexecutable":
            assert result.error in ("incomplete_request", "unsatisfiable"), (result.call, result.error_detail)
            continue
        assert result.url != "illegal" and result.method != "illegal", result.call
        illegal_own = own_endpoint_illegal(result, SpecIndex.load(subset.specs[result.api]))
        if illegal_own and any_adapter.name == "fetch_js" and setup is Setup.argument:
            # Known gap (README, fetch_js): fetch's argument starter leaves the method to the model, and a
            # method of another endpoint whose path template also matches the URL (`PUT .../values/{range}`
            # for `.../values/A1:B2:clear`) can get arguments that endpoint does not take.
            pytest.xfail(f"fetch_js argument setup: method chosen for a wider path template: {result.call[:120]!r}")
        assert illegal_own == 0, result.call
        # In the argument setup the starter fixes the URL, and for axios and the Python libraries the
        # method too: the endpoint is the expected one and the judge (which checks arguments against the
        # expected endpoint, metrics.md §5) agrees. fetch's starter (`fetch('<url>'`) leaves the method
        # to the model: a call on another method of the same path is checked against its own endpoint above.
        if setup is Setup.argument and any_adapter.name != "fetch_js":
            assert result.method == "correct", result.call  # the starter fixed it
        if setup is Setup.argument and result.method == "correct":
            assert "illegal" not in {v for field in result.arguments.values() for v in field.values()}, result.call
