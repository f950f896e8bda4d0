"""Constrained decoding through a server's guided decoding (``-O guided=...``).

The ``openai`` backend cannot mask tokens itself: it sends each request's grammar to a server that
enforces it. vLLM does, with its ``guidance`` structured-output backend (llguidance, whose Lark
dialect the adapters' grammars are written in):

- ``vllm``: ``"structured_outputs": {"grammar": ...}`` (vLLM 0.10.2 and later; the older fields
  were removed in 0.12); start the server with ``--structured-outputs-config.backend guidance``;
- ``vllm-legacy``: ``"guided_grammar": ...`` with ``"guided_decoding_backend": "guidance"`` (vLLM
  before 0.12).

OpenAI, TGI and llama.cpp take no Lark grammar (TGI and llama.cpp take regular expressions or
GBNF): a constrained run refuses them (``guided=none``) rather than run unconstrained. The grammar
starts where the completion starts (:meth:`~wapii_core.grammar.Constraint.for_completion`), so
only the completions endpoint can be constrained; a chat answer is not a continuation of the starter.
"""

from __future__ import annotations

from typing import Any, Literal

from wapii_core.api import GenerationRequest, RunContext, WapiiError
from wapii_core.kits.grammar import Constraint, RunConstraints, is_constrained

GuidedStyle = Literal["none", "vllm", "vllm-legacy"]


def grammar_fields(style: GuidedStyle, grammar: str) -> dict[str, Any]:
    """The request-body fields that carry ``grammar`` for a server of ``style``."""
    if style == "vllm":
        return {"structured_outputs": {"grammar": grammar}}
    if style == "vllm-legacy":
        return {"guided_grammar": grammar, "guided_decoding_backend": "guidance"}
    raise ValueError(f"no grammar fields for guided={style!r}")


class GuidedGrammars:
    """The completion grammar of each request of a constrained run, checked against the backend's options."""

    def __init__(self, context: RunContext, style: GuidedStyle, chat: bool, **options: Any) -> None:
        if style == "none":
            raise WapiiError(f"the openai backend constrains generation only through a server's guided decoding "
                             f"(setting {context.setting!r}): pass -O guided=vllm (vLLM 0.10.2 or later, "
                             "started with --structured-outputs-config.backend guidance) or -O guided=vllm-legacy "
                             "(older vLLM); OpenAI, TGI and llama.cpp cannot take the grammar")
        if chat:
            raise WapiiError("guided decoding continues the starter code: use the completions endpoint "
                             "(-O chat=false) with a base model")
        self.style = style
        self._constraints = RunConstraints(context, **options)

    def of(self, request: GenerationRequest) -> Constraint | None:
        """The grammar of ``request``'s completion; None when none can be legal (its starter names
        no endpoint of the spec: the request is ``unsatisfiable`` without asking the server)."""
        return self._constraints.of(request.sample.api).for_completion(request.prompt.starter)


def guided_grammars(context: RunContext | None, style: GuidedStyle, chat: bool, **options: Any) -> GuidedGrammars | None:
    """The run's :class:`GuidedGrammars`, or None for an unconstrained run (where ``guided`` is ignored)."""
    if context is None or not is_constrained(context):
        return None
    return GuidedGrammars(context, style, chat, **options)
