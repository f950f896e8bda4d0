"""Constrained generation for the ``hf`` backend: batched decoding under per-request grammars.

Which grammar each request gets, and which part of its region the prompt already holds, comes from
:class:`wapii_core.grammar.run_constraints.RunConstraints` (one ``Row`` per request).
:class:`ConstrainedDecoder` wraps a :class:`~.decoding.BatchDecoder`: one matcher per row (fed
that part first), the grammar mask applied at every step by
:class:`~.logits.GrammarLogitsProcessor`, and each completion's finish reason taken from it
(``stop``, ``length``, ``timeout``, ``unsatisfiable``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Sequence

from wapii_core.api import WapiiError
from wapii_core.kits.grammar import Engine, Row, get_engine

from .decoding import BatchDecoder, Completion

DEFAULT_TIME_LIMIT_S = 900.0
"""The reference's wall-clock cap per constrained sample (15 minutes)."""


class ConstrainedDecoder:
    """Batched generation under per-row grammars (see the module docstring)."""

    def __init__(self, decoder: BatchDecoder, *, time_limit: float | None = DEFAULT_TIME_LIMIT_S,
                 engine: Engine | None = None) -> None:
        self.decoder = decoder
        self.engine = engine or get_engine()
        self.time_limit = time_limit
        hf_tokenizer = decoder.loaded.tokenizer
        self.tokenizer = self.engine.tokenizer(hf_tokenizer)
        self.eos_id = hf_tokenizer.eos_token_id
        if self.eos_id is None:
            raise WapiiError("constrained decoding needs a tokenizer with an end-of-sequence token")
        self.last_processor: Any = None  # the processor of the latest batch (benchmarks read its timings)

    def _matcher(self, row: Row) -> tuple[Any, bool]:
        """A fresh matcher for ``row``, fed its prefix; (matcher, whether the prefix broke the grammar)."""
        matcher = self.engine.compile(row.constraint.grammar, self.tokenizer).matcher()
        return matcher, not matcher.feed(row.prefix)

    def complete(self, texts: list[str], rows: list[Row], *, add_special_tokens: bool = True,
                 seed: int | None = None,
                 complete: Sequence[Callable[[str], bool] | None] | None = None) -> list[Completion]:
        """One completion per text, generated as one batch under its row's grammar (``complete``:
        as for :meth:`BatchDecoder.complete`)."""
        from .logits import GrammarLogitsProcessor

        if self.decoder.decoder_prompt and len(texts) > 1:  # such rows are generated one at a time
            return [c for i, (text, row) in enumerate(zip(texts, rows))
                    for c in self.complete([text], [row], add_special_tokens=add_special_tokens, seed=seed,
                                           complete=None if complete is None else [complete[i]])]
        fed = [self._matcher(row) for row in rows]
        processor = GrammarLogitsProcessor([m for m, _ in fed], self.tokenizer.vocab_size, self.eos_id,
                                           time_limit=self.time_limit, failed=[bad for _, bad in fed])
        self.last_processor = processor
        completions = self.decoder.complete(texts, add_special_tokens=add_special_tokens, seed=seed,
                                            logits_processor=[processor], complete=complete)
        # a row whose end token came with the last allowed step never reached the processor again
        return [replace(c, finish_reason=c.finish_reason if outcome == "length" else outcome)
                for c, outcome in zip(completions, processor.outcomes())]
