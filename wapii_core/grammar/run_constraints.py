"""Which constraint each generation request of a run gets: what every constraining backend shares.

A backend that decodes under constraints builds one :class:`RunConstraints` from its run context.
It asks the run's adapter for the constraint of each request's API and setup
(``adapter.constraint(spec, setup, **options)``, cached per spec) and says which part of the
grammar's region the request's starter code already holds (:class:`Row`): a backend that runs the
matcher itself feeds that part first (``hf``); one that hands the grammar to a server instead sends
:meth:`~.constraint.Constraint.for_completion` of the starter (``openai`` with guided decoding).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wapii_core.base.model import GenerationRequest
from wapii_core.base.protocols import RunContext
from wapii_core.grammar.constraint import Constraint

CONSTRAINED_SETTINGS = ("constrained", "constrained-rag")


def is_constrained(context: RunContext | None) -> bool:
    """Whether the run asks for constrained decoding (its ``setting``)."""
    return getattr(context, "setting", "unconstrained") in CONSTRAINED_SETTINGS


@dataclass(frozen=True)
class Row:
    """What one request is constrained by: the grammar, and the region text its starter holds."""

    constraint: Constraint
    prefix: str


class RunConstraints:
    """The constraint of every request of one run (one grammar per API, from the adapter)."""

    def __init__(self, context: RunContext, **options: Any) -> None:
        self._build = context.adapter.constraint
        self._specs = context.dataset.specs
        self._setup = context.setup
        self._options = options  # passed to the adapter's constraint(): e.g. references=False
        self._by_api: dict[str, Constraint] = {}

    def of(self, api: str) -> Constraint:
        """The constraint of one API of the dataset (built once per run)."""
        if api not in self._by_api:
            self._by_api[api] = self._build(self._specs[api], self._setup, **self._options)
        return self._by_api[api]

    def row(self, request: GenerationRequest) -> Row:
        constraint = self.of(request.sample.api)
        return Row(constraint, constraint.prefix(request.prompt.starter))
