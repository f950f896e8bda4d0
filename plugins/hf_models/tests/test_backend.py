"""The hf backend on wapii-tiny: programs, caching, chat, sampling, options, memory pressure."""

from __future__ import annotations

import pytest

from wapii_core.api import BackendOptions, WapiiError
from wapii_hf_models.backend import HFBackend


def backend(draws: int = 1, model: str = "wapii-tiny", **extra: str) -> HFBackend:
    return HFBackend(BackendOptions(model=model, draws=draws, extra={"max_new_tokens": "10", **extra}))


def generate(b: HFBackend, reqs):
    try:
        return sorted(b.generate(reqs), key=lambda g: (g.sample, g.draw))
    finally:
        b.close()


def untimed(gens):
    """The generations less their timings (a generation's wall time is never the same twice)."""
    return [g.model_copy(update={"timings": None}) for g in gens]


@pytest.mark.slow
def test_programs_continue_the_starter_and_batch_size_changes_nothing(make_reqs):
    reqs = make_reqs()
    big = generate(backend(batch_size="4", no_cache="true"), reqs)
    small = generate(backend(batch_size="1", no_cache="true"), reqs)
    assert untimed(big) == untimed(small)
    for gen, req in zip(big, sorted(reqs, key=lambda r: r.sample.id)):
        assert gen.code.startswith(req.prompt.starter) and len(gen.code) > len(req.prompt.starter)
        assert gen.error is None and gen.finish_reason == "length"


@pytest.mark.slow
def test_a_rerun_is_served_from_the_cache_without_loading_the_model(make_reqs, monkeypatch):
    reqs = make_reqs(3)
    first_backend = backend(max_new_tokens="11")
    first = generate(first_backend, reqs)
    assert first_backend.model_calls == 3
    import wapii_hf_models.backend as module

    with monkeypatch.context() as patch:
        patch.setattr(module, "load_model", lambda *a, **k: pytest.fail("the model was loaded"))
        again = backend(max_new_tokens="11")
        cached = generate(again, reqs)
        assert untimed(cached) == untimed(first) and again.model_calls == 0
    assert all(g.timings.latency_s is g.timings.tokens_in is g.timings.tokens_out is None for g in cached)  # cost nothing
    fresh = backend(max_new_tokens="11", no_cache="true")
    assert untimed(generate(fresh, reqs)) == untimed(first) and fresh.model_calls == 3


def test_a_generation_records_its_exact_tokens_and_its_share_of_the_batch_time(make_reqs, tiny_dir):
    from transformers import AutoTokenizer

    reqs = make_reqs()
    tokenizer = AutoTokenizer.from_pretrained(tiny_dir)
    by_size = {size: generate(backend(batch_size=size, no_cache="true", stop="e"), reqs) for size in ("4", "1")}
    for gen, req in zip(by_size["4"], sorted(reqs, key=lambda r: r.sample.id)):
        assert gen.timings.tokens_in == len(tokenizer(req.prompt.text)["input_ids"])  # the batch's padding not counted
        assert 0 < gen.timings.latency_s < 60 and 1 <= gen.timings.tokens_out <= 10
    assert [g.timings.tokens_out for g in by_size["4"]] == [g.timings.tokens_out for g in by_size["1"]]
    assert [g.timings.tokens_in for g in by_size["4"]] == [g.timings.tokens_in for g in by_size["1"]]
    stopped = [g for g in by_size["4"] if g.finish_reason == "stop"]
    longest = max(stopped, key=lambda g: g.timings.tokens_out)
    assert longest.timings.tokens_out > 1  # rows of one batch stopped at different steps
    shorter = generate(backend(no_cache="true", stop="e", max_new_tokens=str(longest.timings.tokens_out - 1)),
                       [r for r in reqs if r.sample.id == longest.sample])
    assert shorter[0].finish_reason == "length"  # one token fewer and the stop string had not come yet
    full = generate(backend(no_cache="true"), reqs[:2])
    assert all(g.finish_reason == "length" and g.timings.tokens_out == 10 for g in full)


@pytest.mark.slow
def test_the_chat_path_renders_the_template_and_returns_a_program(make_reqs):
    b = backend(chat="true", no_cache="true")
    reqs = make_reqs(2)
    gens = generate(b, reqs)
    assert b.describe()["chat"] is True and b.describe()["system"] == "none"
    for gen, req in zip(gens, reqs):
        assert gen.code.startswith(req.prompt.starter)
    b2 = backend(chat="true", no_cache="true")
    b2._load()
    rendered = b2._render(b2._item(reqs[0]))
    asked = "<|user|>\nYou are an AI programming assistant. Complete the following code snippet without any explanations:"
    assert rendered == f"{asked}<|endoftext|>\n<|assistant|>\n```javascript\n{reqs[0].prompt.starter}"
    b2.close()


def test_without_prefill_the_chat_answer_is_asked_for_and_parsed(make_reqs):
    b = backend(chat="true", prefill="false", no_cache="true")
    reqs = make_reqs(2)
    gens = generate(b, reqs)
    assert "prefill" not in b.describe()
    for gen, req in zip(gens, reqs):
        assert gen.code.startswith(req.prompt.starter) and gen.raw is not None
    b._load()
    rendered = b._render(b._item(reqs[0]))
    expected = reqs[0].prompt.text.replace("snippet:", "snippet without any explanations:")
    assert rendered == f"<|user|>\n{expected}<|endoftext|>\n<|assistant|>\n"
    b.close()


def test_sampled_draws_use_the_papers_settings_and_are_reproducible(make_reqs):
    reqs = make_reqs(2, draws=3)
    b = backend(draws=3, no_cache="true", seed="3")
    described = b.describe()
    assert (described["temperature"], described["top_k"], described["top_p"], described["seed"]) == (0.2, 50, 1.0, 3)
    first = generate(b, reqs)
    assert untimed(generate(backend(draws=3, no_cache="true", seed="3"), reqs)) == untimed(first)
    assert len({g.draw for g in first}) == 3


def test_describe_holds_what_determines_answers_and_nothing_else(tiny_dir):
    described = backend(batch_size="3", threads="1", device="cpu").describe()
    assert described == {"model": "wapii-tiny", "revision": None, "fingerprint": described["fingerprint"],
                         "dtype": "float32", "chat": False, "max_new_tokens": 10, "temperature": 0.0,
                         "stop": "\n```\n"}
    assert len(described["fingerprint"]) == 16


def test_a_local_model_directory_works_like_a_hub_id(tiny_dir, make_reqs):
    reqs = make_reqs(2)
    by_name = generate(backend(no_cache="true"), reqs)
    by_path = generate(backend(model=str(tiny_dir), no_cache="true"), reqs)
    assert untimed(by_path) == untimed(by_name)


def test_running_out_of_memory_halves_the_batch(make_reqs, monkeypatch):
    import torch

    b = backend(batch_size="4", no_cache="true")
    decoder = b._load()
    real = decoder.complete

    def tight(texts, **kwargs):
        if len(texts) > 1:
            raise torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        if "Renew" in texts[0]:
            raise torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 1.00 GiB")
        return real(texts, **kwargs)

    monkeypatch.setattr(decoder, "complete", tight)
    gens = generate(b, make_reqs())
    failed = [g for g in gens if g.error]
    assert len(failed) == 1 and failed[0].finish_reason == "error" and "out of memory" in failed[0].error
    assert all(g.code for g in gens if not g.error) and len(gens) == 6


@pytest.mark.parametrize("extra, message", [
    ({"batchsize": "4"}, "unknown option 'batchsize'"),
    ({"dtype": "int3"}, "option dtype"),
    ({"batch_size": "0"}, "option batch_size"),
    ({"max_new_tokens": "many"}, "option max_new_tokens"),
])
def test_bad_options_are_one_line_errors(extra, message, tiny_dir):
    with pytest.raises(WapiiError, match=message):
        backend(**extra)


def test_bad_model_names_are_one_line_errors(tmp_path):
    with pytest.raises(WapiiError, match="needs --model"):
        HFBackend(BackendOptions(model=None))
    with pytest.raises(WapiiError, match="not a model directory"):
        backend(model=str(tmp_path / "missing"))
    with pytest.raises(WapiiError, match="no such GGUF file"):
        backend(model=str(tmp_path / "missing.gguf"))
    from wapii_hf_models.gguf import converted_root, file_sha256

    for name, content in (("short.gguf", b"GGUF\x03\x00\x00\x00garbage"), ("text.gguf", b"not a model\n")):
        (tmp_path / name).write_bytes(content)
        with pytest.raises(WapiiError, match=f"{name}: cannot convert this GGUF file"):
            backend(model=str(tmp_path / name))
        sha = file_sha256(tmp_path / name)[:16]
        left = [p.name for p in converted_root().iterdir() if sha in p.name and not p.name.endswith(".lock")]
        assert left == []  # nothing half-written (the converters' lock file stays, empty)
    empty = tmp_path / "empty"
    empty.mkdir()
    b = backend(model=str(empty), no_cache="true")
    with pytest.raises(WapiiError, match="cannot load model"):
        b._load()
