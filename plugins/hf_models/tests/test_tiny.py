"""wapii-tiny: built locally, deterministically and atomically, loaded through from_pretrained."""

from __future__ import annotations

from wapii_hf_models import tiny
from wapii_hf_models.loading import fingerprint_dir


def test_built_once_into_the_cache_and_loaded_by_from_pretrained(tiny_dir):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    assert tiny_dir == tiny.model_dir() and tiny_dir.parent.name == "models"
    assert {"config.json", "model.safetensors", "tokenizer.json"} <= {p.name for p in tiny_dir.iterdir()}
    stamp = (tiny_dir / "model.safetensors").stat().st_mtime_ns
    assert tiny.ensure_built() == tiny_dir
    assert (tiny_dir / "model.safetensors").stat().st_mtime_ns == stamp  # not rebuilt
    model = AutoModelForCausalLM.from_pretrained(tiny_dir)
    tokenizer = AutoTokenizer.from_pretrained(tiny_dir)
    params = sum(p.numel() for p in model.parameters())
    assert 2_000_000 <= params <= 10_000_000
    assert tokenizer.chat_template and "<|assistant|>" in tokenizer.apply_chat_template(
        [{"role": "user", "content": "hi"}], tokenize=False, add_generation_prompt=True)


def test_the_tokenizer_learned_the_projects_text_and_round_trips(tiny_dir):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_dir)
    code = "const axios = require('axios');\n\naxios.get('https://api.example.com/books', { params: { q: 'tidé' } });\n"
    ids = tokenizer(code, add_special_tokens=False).input_ids
    assert tokenizer.decode(ids) == code
    assert len(ids) < len(code) / 2  # merges learned from the project's specs and sources
    assert 1000 < len(tokenizer) <= tiny.VOCAB_SIZE


def test_the_build_is_deterministic_and_a_stale_recipe_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("WAPII_CACHE_DIR", str(tmp_path))
    fresh = tiny.ensure_built()
    assert fresh == tmp_path / "models" / "wapii-tiny"
    first = fingerprint_dir(fresh)
    (fresh / "wapii-tiny-recipe").write_text("0\n")  # as left by an older recipe
    (fresh / "model.safetensors").write_bytes(b"stale")
    assert tiny.ensure_built() == fresh
    assert fingerprint_dir(fresh) == first  # same corpus, same seed: the same tokenizer and weights
    left = [p.name for p in fresh.parent.iterdir() if p.name != ".wapii-tiny.lock"]  # the builders' lock stays
    assert left == ["wapii-tiny"]  # no staging directory left behind
