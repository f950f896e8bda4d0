"""Finding, identifying and loading a model: ``wapii-tiny``, a GGUF file, a local directory or a hub id.

torch and transformers are imported inside the functions that need them.
"""

from __future__ import annotations

import difflib
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wapii_core.api import WapiiError

from . import gguf, tiny

DTYPE_ALIASES = {"fp32": "float32", "float": "float32", "fp16": "float16", "half": "float16",
                 "bf16": "bfloat16", "fp64": "float64", "double": "float64", "float32": "float32",
                 "float16": "float16", "bfloat16": "bfloat16", "float64": "float64"}
_HASHED_FILE_LIMIT = 64 * 1024 * 1024
"""Files up to this size are hashed whole into a local model's fingerprint; larger ones by name and size."""


@dataclass(frozen=True)
class ModelSource:
    """Where ``--model`` points: ``location`` is what ``from_pretrained`` receives."""

    name: str
    location: str
    local: bool


def resolve_source(name: str, progress: Any = None) -> ModelSource:
    """``wapii-tiny`` (built on first use), a GGUF file or a shipped GGUF model such as ``smollm2-135m``
    (converted once, :mod:`.gguf`), an existing directory, or else a hub id."""
    if name == tiny.NAME:
        return ModelSource(name, str(tiny.ensure_built()), True)
    if gguf.is_gguf_name(name):
        file = gguf.shipped_file(name) if name in gguf.SHIPPED else Path(name)
        return ModelSource(name, str(gguf.converted_dir(file, progress)), True)
    path = Path(name).expanduser()
    if path.is_dir():
        return ModelSource(name, str(path.resolve()), True)
    if path.exists() or name.startswith((".", "/", "~")) or name.count("/") > 1:
        raise WapiiError(f"--model {name}: not a model directory (nor the hub id of one: 'org/name')")
    aliases = [tiny.NAME, *gguf.SHIPPED]
    close = difflib.get_close_matches(name, aliases, n=1, cutoff=0.75) if "/" not in name else []
    if close:  # a mistyped alias, not a hub id: the hub would only say it cannot find it
        raise WapiiError(f"--model {name}: unknown model (did you mean {close[0]!r}?) (the names wapii knows: "
                         f"{', '.join(aliases)}; else a hub id 'org/name', a model directory or a GGUF file)")
    return ModelSource(name, name, False)


def fingerprint_dir(directory: Path) -> str:
    """A digest of a local model directory: its small files whole, its large weight files by name and size.

    It changes when the model does (other weights, config or tokenizer) but not when the directory
    is copied or touched, so it can be part of a run's identity and of cache keys.
    """
    digest = hashlib.sha256()
    for file in sorted(p for p in Path(directory).rglob("*") if p.is_file() and not p.name.startswith(".")):
        rel = file.relative_to(directory).as_posix()
        size = file.stat().st_size
        digest.update(f"{rel}\0{size}\0".encode())
        if size <= _HASHED_FILE_LIMIT:
            digest.update(hashlib.sha256(file.read_bytes()).digest())
    return digest.hexdigest()[:16]


def hub_commit(repo_id: str, revision: str | None) -> str | None:
    """The commit a hub revision resolves to in the local Hugging Face cache, without network; None if absent."""
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return None
    found = try_to_load_from_cache(repo_id, "config.json", revision=revision)
    if not isinstance(found, str):
        return None
    parts = Path(found).parts
    return parts[-2] if len(parts) >= 2 and parts[-3] == "snapshots" else None


def resolve_device(device: str) -> str:
    """``auto``: the first CUDA GPU, else Apple's MPS, else the CPU."""
    import torch

    if device != "auto":
        return device
    if torch.cuda.is_available():
        return "cuda"
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return "mps"
    return "cpu"


def resolve_dtype(dtype: str, device: str) -> str:
    """``auto``: bfloat16 on a GPU that has it (else float16), float32 on the CPU."""
    import torch

    if dtype != "auto":
        if dtype not in DTYPE_ALIASES:
            raise WapiiError(f"option dtype: {dtype!r} is not one of auto, {', '.join(sorted(DTYPE_ALIASES))}")
        return DTYPE_ALIASES[dtype]
    if device.startswith("cuda"):
        return "bfloat16" if torch.cuda.is_bf16_supported() else "float16"
    if device.startswith("mps"):
        return "float16"
    return "float32"


@dataclass
class LoadedModel:
    """A model in memory with its tokenizer (left padding, a pad token)."""

    model: Any
    tokenizer: Any
    encoder_decoder: bool
    device: str


def load_model(source: ModelSource, *, dtype: str, device: str, revision: str | None = None,
               trust_remote_code: bool = False) -> LoadedModel:
    """Load tokenizer and model through ``from_pretrained`` (decoder-only or encoder-decoder)."""
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForSeq2SeqLM, AutoTokenizer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    common: dict[str, Any] = {"revision": revision, "trust_remote_code": trust_remote_code}
    try:
        config = AutoConfig.from_pretrained(source.location, **common)
        tokenizer = AutoTokenizer.from_pretrained(source.location, padding_side="left", **common)
        encoder_decoder = bool(getattr(config, "is_encoder_decoder", False))
        model_class = AutoModelForSeq2SeqLM if encoder_decoder else AutoModelForCausalLM
        model = model_class.from_pretrained(source.location, dtype=getattr(torch, dtype), **common)
    except (OSError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise WapiiError(f"cannot load model {source.name!r}: {first}") from None
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    tokenizer.padding_side = "left"
    model.to(device).eval()
    return LoadedModel(model, tokenizer, encoder_decoder, device)
