"""Whether prompts fit the model's context: a prompt that does not (the whole spec of a large API in
the ``spec`` setting) is refused in one line naming its token count, before anything is generated,
instead of being cut silently by the model or failing deep inside it."""

from __future__ import annotations

from typing import Any

from wapii_core.api import WapiiError


def context_tokens(loaded: Any) -> int | None:
    """The tokens the model attends to (its config's ``max_position_embeddings`` or kin; None: unknown)."""
    config = getattr(loaded.model, "config", None)
    for name in ("max_position_embeddings", "n_positions", "max_sequence_length", "seq_length"):
        value = getattr(config, name, None)
        if isinstance(value, int) and value > 0:
            return value
    return None


def check_fits(loaded: Any, prompts: dict[str, str], max_new_tokens: int, model: str, *,
               add_special_tokens: bool) -> None:
    """Refuses (one line) when a prompt of ``prompts`` (sample id -> text as the model reads it) and
    ``max_new_tokens`` exceed the model's context; names the longest prompt and its token count."""
    limit = context_tokens(loaded)
    if limit is None or getattr(loaded, "encoder_decoder", False):
        return
    worst_id, worst = "", -1
    for sample_id, text in prompts.items():
        count = len(loaded.tokenizer(text, add_special_tokens=add_special_tokens, verbose=False)["input_ids"])
        if count > worst:
            worst_id, worst = sample_id, count
    if worst + max_new_tokens > limit:
        raise WapiiError(f"the prompt of {worst_id} is {worst:,} tokens; with {max_new_tokens} new tokens it exceeds "
                         f"the context of {model!r} ({limit:,} tokens): use a model with a longer context, a "
                         "smaller setting than spec, or -O max_new_tokens=N")
