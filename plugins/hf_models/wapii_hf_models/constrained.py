"""Constrained generation for the ``hf`` backend: which grammar each request gets, and batched decoding under it.

:class:`Constraints` asks the run's adapter for the constraint of each request's API and setup
(``adapter.constraint(spec, setup)``, cached per spec) and says which part of the grammar's region
the prompt already holds. :class:`ConstrainedDecoder` wraps a :class:`~.decoding.BatchDecoder`:
one matcher per row (fed that part first), the grammar mask applied at every step by
:class:`~.logits.GrammarLogitsProcessor`, and each completion's finish reason taken from it
(``stop``, ``length``, ``timeout``, ``unsatisfiable``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wapii_core.errors import WapiiError
from wapii_core.grammar import Constraint, Engine, get_engine
from wapii_core.model import GenerationRequest
from wapii_core.protocols import RunContext

from .decoding import BatchDecoder, Completion

CONSTRAINED_SETTINGS = ("constrained", "constrained-rag")
DEFAULT_TIME_LIMIT_S = 900.0
"""The reference's wall-clock cap per constrained sample (15 minutes)."""


def is_constrained(context: RunContext | None) -> bool:
    """Whether the run asks for constrained decoding (its ``setting``)."""
    return getattr(context, "setting", "unconstrained") in CONSTRAINED_SETTINGS


@dataclass(frozen=True)
class Row:
    """What one row of a batch is constrained by: the grammar, and the region text its prompt holds."""

    constraint: Constraint
    prefix: str


class Constraints:
    """The constraint of every request of one run (one grammar per API, from the adapter)."""

    def __init__(self, context: RunContext, **options: Any) -> None:
        build = getattr(context.adapter, "constraint", None)
        if build is None:
            raise WapiiError(f"adapter {context.adapter.name!r} cannot constrain generation "
                             "(it has no constraint(spec, setup))")
        self._build = build
        self._specs = context.dataset.specs
        self._setup = context.setup
        self._options = options  # passed to the adapter's constraint(): e.g. references=False
        self._by_api: dict[str, Constraint] = {}

    def row(self, request: GenerationRequest) -> Row:
        api = request.sample.api
        if api not in self._by_api:
            self._by_api[api] = self._build(self._specs[api], self._setup, **self._options)
        constraint = self._by_api[api]
        return Row(constraint, constraint.prefix(request.prompt.starter))


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
                 seed: int | None = None) -> list[Completion]:
        """One completion per text, generated as one batch under its row's grammar."""
        from .logits import GrammarLogitsProcessor

        if self.decoder.decoder_prompt and len(texts) > 1:  # such rows are generated one at a time
            return [c for text, row in zip(texts, rows)
                    for c in self.complete([text], [row], add_special_tokens=add_special_tokens, seed=seed)]
        fed = [self._matcher(row) for row in rows]
        processor = GrammarLogitsProcessor([m for m, _ in fed], self.tokenizer.vocab_size, self.eos_id,
                                           time_limit=self.time_limit, failed=[bad for _, bad in fed])
        self.last_processor = processor
        completions = self.decoder.complete(texts, add_special_tokens=add_special_tokens, seed=seed,
                                            logits_processor=[processor])
        # a row whose end token came with the last allowed step never reached the processor again
        return [Completion(c.text, c.finish_reason if outcome == "length" else outcome)
                for c, outcome in zip(completions, processor.outcomes())]
