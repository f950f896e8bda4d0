"""When a row of a batch stops: judged on the text the model generated, never on the prompt.

transformers' own ``stop_strings`` look at the end of the whole sequence, prompt included: a chat
prompt ending in ``"assistant\\n"`` followed by an answer opening with ``"```\\n"`` matches the
stop string ``"\\n```\\n"`` after two tokens. :class:`GeneratedTextStop` decodes each row's
generated tokens (with the prompt's last token in front, so that a leading space survives
SentencePiece decoding) and stops the row when

- the stop string occurs in them (``stop``), or
- the row's ``complete`` predicate says the program is complete (``call_complete``; see
  :func:`wapii_core.generation.call_stop.call_complete_predicate`).

It records which reason stopped each row; rows it did not stop ended with an end-of-sequence
token or ran to the token limit.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import torch
from transformers import StoppingCriteria

Predicate = Callable[[str], bool]


class GeneratedTextStop(StoppingCriteria):
    """Per-row stop on the generated text (see the module docstring)."""

    def __init__(self, tokenizer: Any, prompt_length: int, stop: str | None,
                 complete: Sequence[Predicate | None] | None = None) -> None:
        self.tokenizer = tokenizer
        self.prompt_length = prompt_length
        self.stop = stop or None
        self.complete = list(complete or [])
        self.reasons: dict[int, str] = {}  # row -> "stop" | "call_complete"
        self.lengths: dict[int, int] = {}  # row -> the sequence's length (prompt included) when it stopped

    def text(self, ids: list[int]) -> str:
        """What ``ids`` (the prompt's last token, then the generated ones) add after that token."""
        decode = self.tokenizer.decode
        head = decode(ids[:1], skip_special_tokens=True)
        whole = decode(ids, skip_special_tokens=True)
        return whole[len(head):] if whole.startswith(head) else decode(ids[1:], skip_special_tokens=True)

    def _reason(self, row: int, ids: list[int]) -> str | None:
        text = self.text(ids)
        if self.stop and self.stop in text:
            return "stop"
        predicate = self.complete[row] if row < len(self.complete) else None
        if predicate is not None and predicate(text):
            return "call_complete"
        return None

    def __call__(self, input_ids: torch.LongTensor, scores: Any = None, **kwargs: Any) -> torch.BoolTensor:
        done = torch.zeros(input_ids.shape[0], dtype=torch.bool, device=input_ids.device)
        rows = input_ids[:, self.prompt_length - 1:].tolist()
        for row, ids in enumerate(rows):
            if row not in self.reasons:
                reason = self._reason(row, ids)
                if reason is not None:
                    self.reasons[row] = reason
                    self.lengths[row] = input_ids.shape[1]
            done[row] = row in self.reasons
        return done
