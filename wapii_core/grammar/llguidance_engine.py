"""The llguidance engine (PyPI ``llguidance``): Lark grammars, Earley parsing over a derivative-based lexer.

Compiled grammars are kept per (grammar, tokenizer) in process: a matcher is one ``deep_copy`` of
the compiled one. llguidance is imported on first use.
"""

from __future__ import annotations

import threading
from typing import Any

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

    def __init__(self, matcher: Any, tokenizer: Any) -> None:
        self._template = matcher
        self._tokenizer = tokenizer
        self.vocab_size: int = tokenizer.vocab_size

    def matcher(self) -> LLGuidanceMatcher:
        return LLGuidanceMatcher(self._template.deep_copy(), self._tokenizer)


class LLGuidanceEngine:
    """Constrained decoding with llguidance."""

    name = "llguidance"
    _compiled: dict[tuple[int, str], LLGuidanceGrammar] = {}

    def tokenizer(self, hf_tokenizer: Any) -> Any:
        import llguidance.hf

        return llguidance.hf.from_tokenizer(hf_tokenizer)

    def byte_tokenizer(self) -> Any:
        global _BYTE_TOKENIZER
        with _lock:
            if _BYTE_TOKENIZER is None:
                import llguidance

                _BYTE_TOKENIZER = llguidance.LLTokenizer(llguidance.TokenizerWrapper(_Bytes()))
            return _BYTE_TOKENIZER

    def compile(self, grammar: str, tokenizer: Any) -> LLGuidanceGrammar:
        key = (id(tokenizer), grammar)
        with _lock:
            found = self._compiled.get(key)
        if found is not None:
            return found
        import llguidance

        matcher = llguidance.LLMatcher(tokenizer, llguidance.LLMatcher.grammar_from_lark(grammar), log_level=0)
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
