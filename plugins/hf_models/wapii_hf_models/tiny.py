"""``wapii-tiny``: a small, randomly initialised decoder built locally, for tests and the embedded default.

No weights can be downloaded, so the model is made here, in seconds, on first use:

- a byte-level BPE tokenizer trained with ``tokenizers`` on text the project ships (its bundled
  OpenAPI specs and the Python sources of wapii and of this plugin), with a small chat template so
  the chat path can be exercised too (``-O chat=true``);
- a Llama-style decoder of about 3.7 million parameters, initialised from a fixed seed;
- both saved with ``save_pretrained`` into ``<cache>/models/wapii-tiny`` (built in a temporary
  directory and renamed into place, so a crash or a concurrent build never leaves half a model)
  and loaded back through the ordinary ``from_pretrained`` path like any other local model.

Its output is noise, but deterministic noise: enough to measure throughput, batching, resumption
and caching without a real model. The tokenizer learns from the sources installed when it is
built, so two wapii versions may build different models; the ``hf`` backend's fingerprint of the
directory (in ``run.json`` and in cache keys) tells them apart.
"""

from __future__ import annotations

from pathlib import Path

from wapii_core.kits.files import build_once, bundled_specs_dir, cache_dir

NAME = "wapii-tiny"
RECIPE = 1
"""Bump when the recipe below changes: a directory built by another recipe is rebuilt."""

SEED = 1234
VOCAB_SIZE = 4096
SPECIAL_TOKENS = ["<|endoftext|>", "<|pad|>", "<|system|>", "<|user|>", "<|assistant|>"]
CHAT_TEMPLATE = (
    "{% for message in messages %}<|{{ message['role'] }}|>\n{{ message['content'] }}<|endoftext|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>\n{% endif %}"
)
_MARKER = "wapii-tiny-recipe"


def model_dir() -> Path:
    """Where ``wapii-tiny`` lives: ``<cache>/models/wapii-tiny``."""
    return cache_dir() / "models" / NAME


def is_built(directory: Path) -> bool:
    marker = directory / _MARKER
    return marker.is_file() and marker.read_text(encoding="utf-8").strip() == str(RECIPE)


def ensure_built() -> Path:
    """The directory of ``wapii-tiny``, built first if it is missing or from an older recipe."""
    return build_once(model_dir(), is_built, build)


def corpus_files() -> list[Path]:
    """The text the tokenizer learns from, in a fixed order."""
    from wapii_core import api

    roots = [bundled_specs_dir(), Path(api.__file__).resolve().parent, Path(__file__).resolve().parent]
    files: set[Path] = set()
    for root in roots:
        for pattern in ("*.yaml", "*.yml", "*.json", "*.md", "*.py"):
            files.update(p for p in root.rglob(pattern) if "__pycache__" not in p.parts)
    return sorted(files)


def _train_tokenizer(files: list[Path]):  # -> PreTrainedTokenizerFast
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=VOCAB_SIZE, min_frequency=2, special_tokens=SPECIAL_TOKENS,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    core.train_from_iterator((p.read_text(encoding="utf-8", errors="replace") for p in files), trainer=trainer)
    return PreTrainedTokenizerFast(tokenizer_object=core, eos_token="<|endoftext|>", bos_token="<|endoftext|>",
                                   pad_token="<|pad|>", model_max_length=2048, chat_template=CHAT_TEMPLATE)


def _random_model(tokenizer):  # -> LlamaForCausalLM
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    config = LlamaConfig(
        vocab_size=VOCAB_SIZE, hidden_size=256, intermediate_size=640, num_hidden_layers=4,
        num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=2048,
        initializer_range=0.2,  # peaked logits: greedy choices far from ties, stable across batch shapes
        tie_word_embeddings=True, bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    torch.manual_seed(SEED)
    return LlamaForCausalLM(config).eval()


def build(directory: Path) -> None:
    """Train the tokenizer, initialise the model and ``save_pretrained`` both into ``directory``."""
    tokenizer = _train_tokenizer(corpus_files())
    model = _random_model(tokenizer)
    tokenizer.save_pretrained(directory)
    model.save_pretrained(directory)
    (directory / _MARKER).write_text(f"{RECIPE}\n", encoding="utf-8")
