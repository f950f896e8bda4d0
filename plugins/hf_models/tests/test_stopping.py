"""Stopping on the generated text only, finish reasons, and the complete-call rule."""

from __future__ import annotations

import pytest

from wapii_core.kits.models import brackets_balance, call_complete_predicate
from wapii_hf_models.stopping import GeneratedTextStop

STOP = "\n```\n"
FULL = "// List all books\nconst axios = require('axios');\n\naxios."


@pytest.fixture(scope="module")
def tokenizer():
    from transformers import AutoTokenizer

    from wapii_hf_models import tiny

    return AutoTokenizer.from_pretrained(tiny.ensure_built())


def rows(tokenizer, prompt: str, generated: list[str]):
    """A batch of one prompt followed by each generated text (right-aligned like left padding)."""
    import torch

    head = tokenizer(prompt, add_special_tokens=False)["input_ids"]
    tails = [tokenizer(g, add_special_tokens=False)["input_ids"] for g in generated]
    width = max(len(t) for t in tails)
    pad = tokenizer.pad_token_id
    return torch.tensor([head + t + [pad] * (width - len(t)) for t in tails]), len(head)


def test_a_stop_string_across_the_prompt_boundary_does_not_stop(tokenizer):
    # the chat template's "<|assistant|>\n" + an answer opening with "```\n" ends in "\n```\n"
    ids, length = rows(tokenizer, "<|user|>\nWrite it<|endoftext|>\n<|assistant|>\n", ["```\nget('u')"])
    stop = GeneratedTextStop(tokenizer, length, STOP)
    assert stop(ids).tolist() == [False] and stop.reasons == {}


def test_a_stop_string_in_the_generated_text_stops_its_row_only(tokenizer):
    ids, length = rows(tokenizer, "```javascript\n" + FULL, ["get('u');\n```\n", "get('u', {"])
    stop = GeneratedTextStop(tokenizer, length, STOP)
    assert stop(ids).tolist() == [True, False] and stop.reasons == {0: "stop"}


def test_finish_reasons_say_what_ended_a_completion(tokenizer):
    from wapii_hf_models.decoding import BatchDecoder, DecodingParams
    from wapii_hf_models.loading import LoadedModel

    class Model:  # BatchDecoder reads only the generation config of its model here
        generation_config = type("C", (), {"eos_token_id": tokenizer.eos_token_id})()

    decoder = BatchDecoder(LoadedModel(Model(), tokenizer, False, "cpu"), DecodingParams(max_new_tokens=8))
    ids = lambda text: tokenizer(text, add_special_tokens=False)["input_ids"]  # noqa: E731
    assert decoder._completion([], ids("get('u');\n```\nmore")).stopped_by == "stop"
    assert decoder._completion([], ids("get('u');") + [tokenizer.eos_token_id]).stopped_by == "eos"
    complete = decoder._completion([], ids("get('u');"), "call_complete")
    assert (complete.finish_reason, complete.stopped_by) == ("stop", "call_complete")
    running = decoder._completion([], ids("get('u', {"))
    assert (running.finish_reason, running.stopped_by) == ("length", "")


@pytest.mark.parametrize("code, balanced", [
    ("axios.get('u', { params: { a: [1, 2] } });\n", True),
    ("axios.get('u', { params: { a: 'x;' } });\n", True),
    ("axios.get('u', {\n  data: 'a;", False),  # the cut fell inside a string
    ("axios.get('u', {\n  data: 1", False),
    ("axios.get(`u${a}`)", True),
    ("axios.get('it\\'s')", True),
    ("axios.get('u'))", False),
])
def test_brackets_balance_outside_strings(code, balanced):
    assert brackets_balance(code) is balanced


def _installed(capability: str, wanted: bool) -> list:
    """The registered adapters whose capabilities say ``capability`` is ``wanted`` (created, not started)."""
    from wapii_core.testing import adapters

    made = [adapters.get(name)() for name in adapters.names()]
    return [adapter for adapter in made if getattr(adapter.capabilities, capability) is wanted]


def test_a_call_is_complete_once_the_axios_cut_cannot_be_open_any_more():
    single = _installed("single_call", True)
    assert [adapter.name for adapter in single if adapter.capabilities.language == "javascript"]
    axios = next(adapter for adapter in single if adapter.name == "axios_js")
    complete = call_complete_predicate(axios, FULL)
    assert complete("get('u');")
    assert complete("get('u')\n  .then((response) => {\n")
    assert complete("post('u', {\n  data: { a: 1 }\n});\n")
    assert not complete("get('u')")  # no statement end yet
    assert not complete("get('u')\n")  # a chained .then may follow
    assert not complete("post('u', {\n  data: 'a;b',\n")  # the ';' is inside a string
    assert not complete("post('u', {\n  data: { a: 1 },\n")
    # a workflow's program goes on after its first call: nothing stops it there
    from wapii_core.api import Setup

    assert call_complete_predicate(axios, FULL, Setup.workflow) is None
    assert call_complete_predicate(axios, FULL, Setup.full) is not None


def test_adapters_whose_extraction_keeps_later_statements_are_left_alone():
    others = _installed("single_call", False)
    assert any(adapter.capabilities.language == "python" for adapter in others)
    for adapter in others:
        assert call_complete_predicate(adapter, FULL) is None, adapter.name
    assert call_complete_predicate(None, FULL) is None
