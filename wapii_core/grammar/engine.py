"""The grammar engine interface: compile a grammar for a tokenizer, then match tokens one row at a time.

A backend needs only this: :meth:`Engine.compile` once per (grammar, tokenizer), then one
:class:`Matcher` per generated row, which fills that row's allowed-token bitmask (int32 words,
bit ``t % 32`` of word ``t // 32`` set when token ``t`` is allowed) and consumes the sampled
token. :func:`get_engine` returns the default engine (llguidance); another engine plugs in by
implementing these protocols.
"""

from __future__ import annotations

from typing import Any, Protocol


class Matcher(Protocol):
    """The state of one row: which tokens may come next."""

    def fill_mask(self, bitmask: Any, row: int) -> None:
        """Write the allowed tokens into row ``row`` of ``bitmask`` (a C-contiguous int32 CPU tensor
        or array of shape (batch, ceil(vocab / 32)))."""

    def consume(self, token: int) -> bool:
        """Advance by one sampled token; False when the token was not allowed (the matcher is then in error)."""

    def feed(self, text: str) -> bool:
        """Advance through ``text`` (part of the region already in the prompt); False when it does not fit."""

    def is_error(self) -> bool: ...

    def is_accepting(self) -> bool:
        """Whether the text so far is a complete match (the end token is allowed)."""

    def is_stopped(self) -> bool:
        """Whether nothing but the end token may follow."""


class CompiledGrammar(Protocol):
    """A grammar compiled for one tokenizer; cheap to instantiate matchers from."""

    vocab_size: int

    def matcher(self) -> Matcher: ...


class Engine(Protocol):
    """A constrained-decoding engine."""

    name: str

    def tokenizer(self, hf_tokenizer: Any) -> Any:
        """The engine's view of a Hugging Face tokenizer (built once per tokenizer; may be slow)."""

    def compile(self, grammar: str, tokenizer: Any) -> CompiledGrammar:
        """Compile ``grammar`` for ``tokenizer``; raises ValueError for an invalid grammar."""

    def byte_tokenizer(self) -> Any:
        """A tokenizer with one token per byte (to check texts against a grammar without a model)."""


def get_engine(name: str = "llguidance") -> Engine:
    """The engine called ``name`` (only ``llguidance`` ships with wapii)."""
    if name == "llguidance":
        from wapii_core.grammar.llguidance_engine import LLGuidanceEngine

        return LLGuidanceEngine()
    raise ValueError(f"unknown grammar engine {name!r} (known: llguidance)")


def accepts(grammar: str, text: str, engine: Engine | None = None, *, complete_call: bool = True) -> bool:
    """Whether ``text`` is matched by ``grammar``: completely, or (``complete_call``) up to the point
    where the grammar ends, any text after that being ignored (a call followed by ``.then(...)``)."""
    engine = engine or get_engine()
    matcher = engine.compile(grammar, engine.byte_tokenizer()).matcher()
    for byte in text.encode("utf-8"):
        if complete_call and matcher.is_stopped():
            return not matcher.is_error()
        if not matcher.consume(byte):
            return False
    return matcher.is_accepting()


def allowed_prefix(grammar: str, text: str, engine: Engine | None = None) -> tuple[str, bool]:
    """What of ``text`` a decoder that enforces ``grammar`` lets through: the longest prefix the
    grammar allows (cut where the grammar ends, or before the first byte it rejects), and whether
    that prefix is a complete match."""
    engine = engine or get_engine()
    matcher = engine.compile(grammar, engine.byte_tokenizer()).matcher()
    data = text.encode("utf-8")
    for at, byte in enumerate(data):
        if matcher.is_stopped():
            return data[:at].decode("utf-8", "ignore"), True
        if not matcher.consume(byte):
            return data[:at].decode("utf-8", "ignore"), False
    return text, matcher.is_accepting()
