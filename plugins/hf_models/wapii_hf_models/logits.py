"""A transformers logits processor that masks every row of a batch to the tokens its grammar allows.

One :class:`~wapii_core.grammar.Matcher` per row (None: the row is not constrained). At each step
the processor first advances every running row's matcher by the token sampled last, then fills
the rows' bitmasks and sets disallowed logits to ``-inf`` with plain torch on the CPU (llguidance's
``torch.compile`` helper costs seconds on first use). It runs before transformers' sampling warpers
(temperature, top-k, top-p), so sampling picks among allowed tokens only.

A row ends when its end token is *sampled* (not when the grammar becomes complete, which only
restricts it to the end token). Rows that cannot go on are steered to the end token and remember
why: ``unsatisfiable`` (no token fits, or the starter did not fit the grammar), ``timeout`` (the
wall-clock cap passed). Rows still running when generation stops hit the token limit (``length``).
"""

from __future__ import annotations

import time
from typing import Any, Sequence

import torch
from transformers import LogitsProcessor

RUNNING, STOPPED, UNSATISFIABLE, TIMEOUT = "running", "stop", "unsatisfiable", "timeout"


class GrammarLogitsProcessor(LogitsProcessor):
    """Grammar masks for a batch (see the module docstring).

    ``matchers``: one per row, already fed with the part of the region the prompt holds; None for
    an unconstrained row; ``failed``: rows whose prompt already broke the grammar (unsatisfiable).
    ``vocab_size``: the engine tokenizer's vocabulary (logits beyond it are masked out).
    ``time_limit``: seconds from construction after which running rows stop (``timeout``).
    """

    def __init__(self, matchers: Sequence[Any], vocab_size: int, eos_id: int, *, time_limit: float | None = None,
                 failed: Sequence[bool] = ()) -> None:
        self.matchers = list(matchers)
        self.vocab_size = vocab_size
        self.eos_id = eos_id
        self.deadline = None if time_limit is None else time.monotonic() + time_limit
        self.states = [UNSATISFIABLE if i < len(failed) and failed[i] else RUNNING for i in range(len(self.matchers))]
        self.words = (vocab_size + 31) // 32
        self.bitmask = torch.zeros((len(self.matchers), self.words), dtype=torch.int32)
        self._shifts = torch.arange(32, dtype=torch.int32)
        word, bit = divmod(eos_id, 32)
        self._eos_word, self._eos_value = word, (1 << bit) - (1 << 32 if bit == 31 else 0)  # as a signed int32
        self._started = False
        self.mask_seconds: list[float] = []  # time spent computing masks, per step (all rows together)

    def outcomes(self) -> list[str]:
        """Why each row ended: ``stop``, ``unsatisfiable``, ``timeout``, or ``length`` (still running)."""
        return ["length" if s == RUNNING else s for s in self.states]

    def _advance(self, last: list[int]) -> None:
        for row, token in enumerate(last):
            if self.states[row] != RUNNING:
                continue
            if token == self.eos_id:
                self.states[row] = STOPPED
            elif self.matchers[row] is not None and not self.matchers[row].consume(token):
                self.states[row] = UNSATISFIABLE  # only reachable if a token slipped past the mask

    def _only_end(self, row: int) -> None:
        self.bitmask[row].zero_()
        self.bitmask[row, self._eos_word] = self._eos_value

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        if self._started:
            self._advance(input_ids[:, -1].tolist())
        self._started = True
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.states = [TIMEOUT if s == RUNNING else s for s in self.states]
        began = time.perf_counter()
        for row, matcher in enumerate(self.matchers):
            if self.states[row] != RUNNING:
                self._only_end(row)
            elif matcher is None:
                self.bitmask[row].fill_(-1)
            else:
                matcher.fill_mask(self.bitmask, row)
                if matcher.is_error() or not bool(self.bitmask[row].any()):
                    self.states[row] = UNSATISFIABLE
                    self._only_end(row)
        self.mask_seconds.append(time.perf_counter() - began)
        return self._apply(scores)

    def _apply(self, scores: torch.FloatTensor) -> torch.FloatTensor:
        bits = (self.bitmask.unsqueeze(-1) >> self._shifts) & 1
        allowed = bits.view(len(self.matchers), -1).bool()
        width = scores.shape[-1]
        if allowed.shape[1] >= width:
            allowed = allowed[:, :width]
        else:  # the model's output layer is wider than the tokenizer: those extra ids are never allowed
            allowed = torch.nn.functional.pad(allowed, (0, width - allowed.shape[1]), value=False)
        return scores.masked_fill(~allowed.to(scores.device), float("-inf"))
