"""``chat=auto`` for a local model: whether its tokenizer says it is instruction-tuned.

A chat template alone does not say so: base models often ship one too (Qwen2.5-Coder, SmolLM2).
What does is how a turn ends: an instruction-tuned model is trained to end its answer with the
token its template closes each turn with, so that token is one of its end-of-sequence tokens
(``<|im_end|>`` for SmolLM2-Instruct and Qwen-Instruct, ``<|eot_id|>`` for Llama-3-Instruct),
while a base model ends with a plain end-of-text token (``<|endoftext|>``, ``</s>``). The rule here:
chat when the template contains one of the model's end-of-sequence tokens that is not a plain
end-of-text token. The files are read as JSON; nothing is imported or loaded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PLAIN_END_TOKENS = frozenset({"<|endoftext|>", "</s>", "<|end_of_text|>", "<eos>", "<｜end▁of▁sentence｜>", "<|end|>"})
"""End-of-text tokens that also end plain documents: a template closing turns with them says nothing."""


def _json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def chat_template(directory: Path) -> str:
    """The chat template text(s) of a saved tokenizer ("" when it has none)."""
    jinja = directory / "chat_template.jinja"
    if jinja.is_file():
        return jinja.read_text(encoding="utf-8")
    template: Any = _json(directory / "tokenizer_config.json").get("chat_template")
    if template is None:
        template = _json(directory / "chat_template.json").get("chat_template")
    if isinstance(template, list):  # named templates
        return "\n".join(str(t.get("template", "")) for t in template if isinstance(t, dict))
    return template if isinstance(template, str) else ""


def _ids(value: Any) -> set[int]:
    if isinstance(value, int):
        return {value}
    if isinstance(value, list):
        return {v for v in value if isinstance(v, int)}
    return set()


def end_tokens(directory: Path) -> set[str]:
    """The text of the model's end-of-sequence tokens (generation config, config and tokenizer)."""
    ids = _ids(_json(directory / "generation_config.json").get("eos_token_id"))
    ids |= _ids(_json(directory / "config.json").get("eos_token_id"))
    added = _json(directory / "tokenizer.json").get("added_tokens") or []
    by_id = {t.get("id"): t.get("content") for t in added if isinstance(t, dict)}
    names = {by_id[i] for i in ids if isinstance(by_id.get(i), str)}
    eos = _json(directory / "tokenizer_config.json").get("eos_token")
    if isinstance(eos, dict):
        eos = eos.get("content")
    if isinstance(eos, str):
        names.add(eos)
    return names


def is_chat_directory(directory: Path) -> bool:
    """Whether the model saved in ``directory`` is instruction-tuned (see the module docstring)."""
    template = chat_template(directory)
    if not template:
        return False
    return any(token in template for token in end_tokens(directory) - PLAIN_END_TOKENS)
