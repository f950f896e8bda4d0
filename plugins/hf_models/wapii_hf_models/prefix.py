"""Computing the prompt prefix a batch shares once (prefix caching).

Every prompt of a run starts with the same instructions (and a chat template's system turn); only
the task's starter code at the end differs. On a CPU, reading a prompt (the prefill) costs about as
much as generating hundreds of tokens, so the tokens all rows of a batch share are run through the
model once, their key/value cache copied to every row, and only each row's own rest is prefilled.

The batch is laid out as ``shared prefix + padding + row's rest``: the attention mask hides the
padding, and the position ids transformers derives from the mask give every token the position it
has in the unpadded prompt, so each row computes what it computes alone (up to float rounding
between matrix shapes, as with any batching).
"""

from __future__ import annotations

from typing import Any

MIN_SHARED_TOKENS = 16
"""Shorter shared prefixes are not worth a separate forward pass."""


def shared_length(rows: list[list[int]]) -> int:
    """The number of leading tokens all ``rows`` share, leaving every row at least one token of its own."""
    if not rows:
        return 0
    limit = min(len(r) for r in rows) - 1
    first = rows[0]
    n = 0
    while n < limit and all(r[n] == first[n] for r in rows):
        n += 1
    return max(n, 0)


def layout(rows: list[list[int]], shared: int, pad_id: int) -> tuple[list[list[int]], list[list[int]]]:
    """``(input_ids, attention_mask)`` rows: the shared prefix, padding, then each row's rest."""
    width = max(len(r) for r in rows) - shared
    ids, mask = [], []
    for row in rows:
        rest = row[shared:]
        gap = width - len(rest)
        ids.append(row[:shared] + [pad_id] * gap + rest)
        mask.append([1] * shared + [0] * gap + [1] * len(rest))
    return ids, mask


def prefix_cache(model: Any, prefix: list[int], batch: int) -> Any:
    """A ``DynamicCache`` holding ``prefix``'s keys and values, repeated for ``batch`` rows."""
    import torch
    from transformers import DynamicCache

    cache = DynamicCache()
    ids = torch.tensor([prefix], device=model.device)
    with torch.inference_mode():
        model(input_ids=ids, attention_mask=torch.ones_like(ids), use_cache=True, logits_to_keep=1,
              **{cache_argument(model): cache})
    cache.batch_repeat_interleave(batch)
    return cache


def cache_argument(model: Any) -> str:
    """The keyword a model's ``forward`` and ``generate`` take a cache by: ``cache`` in recent
    transformers, ``past_key_values`` before."""
    import inspect

    return "cache" if "cache" in inspect.signature(model.forward).parameters else "past_key_values"
