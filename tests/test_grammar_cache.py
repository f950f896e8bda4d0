"""Compiled grammars are cached by the tokenizer's vocabulary, not by the tokenizer object's identity."""

from __future__ import annotations

import gc

from wapii_core.grammar.llguidance_engine import LLGuidanceEngine, LLGuidanceTokenizer

GRAMMAR = 'start: "AB"\n'


class _Vocabulary:
    """One token per byte and an end token (256); ``swap`` exchanges the bytes of tokens 65 and 66."""

    eos_token_id = 256
    bos_token_id = None
    special_token_ids = [256]

    def __init__(self, swap: bool = False) -> None:
        self.tokens = [bytes([i]) for i in range(256)] + [b"<|end|>"]
        if swap:
            self.tokens[65], self.tokens[66] = self.tokens[66], self.tokens[65]
        self._index = {t: i for i, t in enumerate(self.tokens)}

    def __call__(self, text):
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        return [self._index[bytes([b])] for b in data]


def tokenizer(swap: bool = False) -> LLGuidanceTokenizer:
    import llguidance

    return LLGuidanceTokenizer(llguidance.LLTokenizer(llguidance.TokenizerWrapper(_Vocabulary(swap))))


def accepts_tokens(compiled, tokens: list[int]) -> bool:
    matcher = compiled.matcher()
    return all(matcher.consume(t) for t in tokens) and matcher.is_accepting()


def test_two_tokenizers_with_one_vocabulary_share_a_compiled_grammar():
    engine = LLGuidanceEngine()
    first, second = tokenizer(), tokenizer()
    assert first is not second and first.digest == second.digest
    assert engine.compile(GRAMMAR, first) is engine.compile(GRAMMAR, second)


def test_a_new_vocabulary_never_gets_a_grammar_compiled_for_an_old_one():
    engine = LLGuidanceEngine()
    old = tokenizer()
    assert accepts_tokens(engine.compile(GRAMMAR, old), [65, 66])
    del old
    gc.collect()  # whatever id the old tokenizer had may now be reused
    swapped = tokenizer(swap=True)
    compiled = engine.compile(GRAMMAR, swapped)
    assert accepts_tokens(compiled, [66, 65])  # "A" is token 66 in this vocabulary
    assert not accepts_tokens(compiled, [65, 66])


def test_the_digest_covers_token_bytes_special_tokens_and_the_end_token():
    assert tokenizer().digest != tokenizer(swap=True).digest
    assert len(tokenizer().digest) == 64
