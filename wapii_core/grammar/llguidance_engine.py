"""The llguidance engine (PyPI ``llguidance``): Lark grammars, Earley parsing over a derivative-based lexer.

Compiled grammars are kept in process per (grammar, vocabulary): a matcher is one ``deep_copy`` of
the compiled one. The vocabulary is identified by a digest of every token's bytes, which tokens
are special and the end tokens (what compiling a grammar depends on), computed once when the
engine's tokenizer is made; so two tokenizers with the same vocabulary share compiled grammars,
and a grammar compiled for one vocabulary is never handed to another (as an ``id()`` could be,
once the object it named is gone). llguidance is imported on first use.
"""

from __future__ import annotations

import hashlib
import threading
from typing import Any

PARSER_LIMITS = {"initial_lexer_fuel": 20_000_000, "step_lexer_fuel": 4_000_000, "step_max_items": 500_000,
                 "max_items_in_row": 20_000}
"""llguidance's work limits, ten to twenty times its defaults (its lexer-state limit, which bounds
memory, stays at the default: raising it alone does not help). Every matcher of a compiled grammar
shares its lexer; with a whole large API in one grammar (GitHub's 1,223 operations and their bodies)
the defaults ran out over a long run (``lexer error: too many expressions constructed``) and every
later row ended ``unsatisfiable`` (measured when every URL was one lexeme, before
:mod:`~wapii_core.grammar.urls`; not measured since). The limits only bound work and memory; they never change
which tokens a grammar allows."""

_BYTE_TOKENIZER: Any = None
_lock = threading.Lock()


class LLGuidanceMatcher:
    """One row's llguidance matcher (see :class:`~wapii_core.grammar.engine.Matcher`)."""

    __slots__ = ("_m", "_tokenizer")

    def __init__(self, matcher: Any, tokenizer: Any) -> None:
        self._m = matcher
        self._tokenizer = tokenizer

    def fill_mask(self, bitmask: Any, row: int) -> None:
        target = bitmask[row]
        if hasattr(target, "data_ptr"):  # a torch tensor
            self._m.unsafe_compute_mask_ptr(target.data_ptr(), target.numel() * target.element_size())
        else:  # a numpy array
            self._m.unsafe_compute_mask_ptr(target.ctypes.data, target.size * target.itemsize)

    def consume(self, token: int) -> bool:
        return bool(self._m.consume_token(int(token)))

    def feed(self, text: str) -> bool:
        if not text:
            return not self._m.is_error()
        return bool(self._m.consume_tokens(self._tokenizer.tokenize_str(text)))

    def is_error(self) -> bool:
        return bool(self._m.is_error())

    def is_accepting(self) -> bool:
        return bool(self._m.is_accepting())

    def is_stopped(self) -> bool:
        return bool(self._m.is_stopped())

    @property
    def error(self) -> str:
        return self._m.get_error()


class LLGuidanceGrammar:
    """A grammar compiled for one tokenizer."""

    def __init__(self, matcher: Any, tokenizer: "LLGuidanceTokenizer") -> None:
        self._template = matcher
        self._tokenizer = tokenizer.ll
        self.vocab_size: int = tokenizer.vocab_size

    def matcher(self) -> LLGuidanceMatcher:
        return LLGuidanceMatcher(self._template.deep_copy(), self._tokenizer)


def vocabulary_digest(ll_tokenizer: Any) -> str:
    """sha256 of what a compiled grammar depends on: every token's bytes, whether it is special,
    and the end tokens (about 0.1 s for a vocabulary of 150,000 tokens)."""
    digest = hashlib.sha256()
    digest.update(f"{ll_tokenizer.vocab_size}:{sorted(ll_tokenizer.eos_tokens)}".encode())
    for token in range(ll_tokenizer.vocab_size):
        data = ll_tokenizer.decode_bytes([token])
        digest.update(b"S" if ll_tokenizer.is_special_token(token) else b"T")
        digest.update(len(data).to_bytes(4, "little"))
        digest.update(data)
    return digest.hexdigest()


class LLGuidanceTokenizer:
    """The engine's view of a tokenizer: the llguidance tokenizer and its vocabulary digest."""

    __slots__ = ("ll", "digest", "vocab_size")

    def __init__(self, ll_tokenizer: Any) -> None:
        self.ll = ll_tokenizer
        self.digest = vocabulary_digest(ll_tokenizer)
        self.vocab_size: int = ll_tokenizer.vocab_size

    def tokenize_str(self, text: str) -> list[int]:
        return list(self.ll.tokenize_str(text))


class LLGuidanceEngine:
    """Constrained decoding with llguidance."""

    name = "llguidance"
    _compiled: dict[tuple[str, str], LLGuidanceGrammar] = {}

    def tokenizer(self, hf_tokenizer: Any) -> LLGuidanceTokenizer:
        import llguidance.hf

        return LLGuidanceTokenizer(llguidance.hf.from_tokenizer(hf_tokenizer))

    def byte_tokenizer(self) -> LLGuidanceTokenizer:
        global _BYTE_TOKENIZER
        with _lock:
            if _BYTE_TOKENIZER is None:
                import llguidance

                _BYTE_TOKENIZER = LLGuidanceTokenizer(llguidance.LLTokenizer(llguidance.TokenizerWrapper(_Bytes())))
            return _BYTE_TOKENIZER

    def compile(self, grammar: str, tokenizer: Any) -> LLGuidanceGrammar:
        """Compile ``grammar`` for ``tokenizer`` (from :meth:`tokenizer` or :meth:`byte_tokenizer`; a bare
        llguidance tokenizer is accepted too, at the cost of hashing its vocabulary on every call)."""
        if not isinstance(tokenizer, LLGuidanceTokenizer):
            tokenizer = LLGuidanceTokenizer(tokenizer)
        key = (tokenizer.digest, grammar)
        with _lock:
            found = self._compiled.get(key)
        if found is not None:
            return found
        import llguidance

        matcher = llguidance.LLMatcher(tokenizer.ll, llguidance.LLMatcher.grammar_from_lark(grammar), log_level=0,
                                       limits=llguidance.LLParserLimits(**PARSER_LIMITS))
        if matcher.is_error():
            raise ValueError(f"invalid grammar: {matcher.get_error()}")
        compiled = LLGuidanceGrammar(matcher, tokenizer)
        with _lock:
            if len(self._compiled) > 64:  # a long session with many specs: keep memory bounded
                self._compiled.clear()
            self._compiled[key] = compiled
        return compiled


class _Bytes:
    """A tokenizer with one token per byte and an end token (256), in the shape llguidance wraps."""

    eos_token_id = 256
    bos_token_id = None
    tokens = [bytes([i]) for i in range(256)] + [b"<|end|>"]
    special_token_ids = [256]

    def __call__(self, text: bytes | str) -> list[int]:
        return list(text if isinstance(text, bytes) else text.encode("utf-8"))
