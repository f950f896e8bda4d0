"""Batched generation: left padding keeps greedy output identical to one prompt at a time."""

from __future__ import annotations

import pytest

from wapii_hf_models.decoding import BatchDecoder, DecodingParams
from wapii_hf_models.loading import ModelSource, load_model


@pytest.fixture
def loaded(tiny_dir):
    return load_model(ModelSource("wapii-tiny", str(tiny_dir), True), dtype="float32", device="cpu")


def prompts(make_reqs) -> list[str]:
    texts = [r.prompt.text for r in make_reqs()]
    assert len({len(t) for t in texts}) == len(texts)  # different lengths: the batch really is padded
    return texts


@pytest.mark.parametrize("cache", [None, "static"])
def test_greedy_batched_output_equals_one_prompt_at_a_time(loaded, make_reqs, cache):
    decoder = BatchDecoder(loaded, DecodingParams(max_new_tokens=12, cache_implementation=cache))
    texts = prompts(make_reqs)
    batched = decoder.complete(texts)
    alone = [decoder.complete([t])[0] for t in texts]
    assert batched == alone
    assert all(c.text and c.finish_reason == "length" for c in batched)
    assert len({c.text for c in batched}) > 1  # the prompts matter


def test_the_shared_prompt_prefix_is_computed_once_and_changes_no_output(loaded, make_reqs, monkeypatch):
    import wapii_hf_models.prefix as prefix

    texts = prompts(make_reqs)
    shared = []
    real = prefix.prefix_cache
    monkeypatch.setattr(prefix, "prefix_cache", lambda model, ids, batch: shared.append(len(ids)) or real(model, ids, batch))
    cached = BatchDecoder(loaded, DecodingParams(max_new_tokens=12)).complete(texts)
    plain = BatchDecoder(loaded, DecodingParams(max_new_tokens=12, prefix_cache=False)).complete(texts)
    assert cached == plain
    rows = loaded.tokenizer(texts)["input_ids"]
    assert shared == [prefix.shared_length(rows)] and shared[0] >= prefix.MIN_SHARED_TOKENS


def test_a_prefix_batch_keeps_a_token_of_each_row_and_pads_between():
    from wapii_hf_models.prefix import layout, shared_length

    rows = [[1, 2, 3, 4], [1, 2, 3], [1, 2, 5, 6, 7]]
    assert shared_length(rows) == 2
    assert shared_length([[1, 2, 3], [1, 2, 3]]) == 2  # each row keeps its last token
    ids, mask = layout(rows, 2, 0)
    assert ids == [[1, 2, 0, 3, 4], [1, 2, 0, 0, 3], [1, 2, 5, 6, 7]]
    assert mask == [[1, 1, 0, 1, 1], [1, 1, 0, 0, 1], [1, 1, 1, 1, 1]]


def test_sampling_is_reproducible_with_a_seed_and_varies_without(loaded, make_reqs):
    decoder = BatchDecoder(loaded, DecodingParams(max_new_tokens=12, temperature=1.0, top_k=50))
    texts = prompts(make_reqs)[:3]
    first = decoder.complete(texts, seed=5)
    assert decoder.complete(texts, seed=5) == first
    assert decoder.complete(texts, seed=6) != first


def test_completions_end_at_the_stop_string_or_end_of_sequence(loaded):
    decoder = BatchDecoder(loaded, DecodingParams(max_new_tokens=40))
    tokenizer = loaded.tokenizer
    ids = lambda text: tokenizer(text, add_special_tokens=False).input_ids  # noqa: E731
    prompt = ids("// Get it\naxios.")
    stopped = decoder._completion(prompt, ids("get('https://x.test/a');\n```\n\nThis is how"))
    assert stopped.text == "get('https://x.test/a');\n```\n" and stopped.finish_reason == "stop"
    ended = decoder._completion(prompt, ids("get('u');") + [tokenizer.eos_token_id] + ids("junk"))
    assert ended.text == "get('u');" and ended.finish_reason == "stop"
    running = decoder._completion(prompt, ids("get('u', {"))
    assert running.text == "get('u', {" and running.finish_reason == "length"


def test_an_encoder_decoder_model_batches_and_can_continue_a_decoder_prompt(tiny_dir, tmp_path, make_reqs):
    import torch
    from transformers import AutoTokenizer, T5Config, T5ForConditionalGeneration

    tokenizer = AutoTokenizer.from_pretrained(tiny_dir)
    config = T5Config(vocab_size=len(tokenizer), d_model=64, d_kv=16, d_ff=128, num_layers=2, num_heads=4,
                      pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
                      decoder_start_token_id=tokenizer.pad_token_id, initializer_factor=5.0)
    torch.manual_seed(0)
    T5ForConditionalGeneration(config).save_pretrained(tmp_path / "t5")
    tokenizer.save_pretrained(tmp_path / "t5")
    loaded = load_model(ModelSource("t5", str(tmp_path / "t5"), True), dtype="float32", device="cpu")
    assert loaded.encoder_decoder
    texts = prompts(make_reqs)[:4]
    plain = BatchDecoder(loaded, DecodingParams(max_new_tokens=8))
    assert plain.complete(texts) == [plain.complete([t])[0] for t in texts]
    continuing = BatchDecoder(loaded, DecodingParams(max_new_tokens=8), decoder_prompt=True)
    out = continuing.complete(texts[:2])
    assert out == [continuing.complete([t])[0] for t in texts[:2]] and all(c.text for c in out)
