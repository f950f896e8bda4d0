"""Batched generation with a loaded model: left padding, stop string, greedy or sampled.

Stop strings (and the optional complete-call rule) are matched on each row's generated text only
(:mod:`.stopping`), and a completion's finish reason says what ended it: ``stop`` for the stop
string, an end-of-sequence token or a complete call, ``length`` only for the token limit.

Prompts of one batch are left-padded so that every row's last prompt token sits at the same
position and generation continues from there; with the attention mask (and the position ids
transformers derives from it) a padded row computes what it would alone, so greedy output does
not depend on the batch it ran in.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

from wapii_core.kits.models import cut_at_stop

from .loading import LoadedModel


@dataclass(frozen=True)
class DecodingParams:
    """What ``generate`` is asked for."""

    max_new_tokens: int = 250
    temperature: float = 0.0  # 0: greedy
    top_k: int = 50
    top_p: float = 1.0
    stop: str | None = "\n```\n"
    cache_implementation: str | None = None  # "static" preallocates the KV cache (fast on CPU)
    prefix_cache: bool = True  # decoder-only batches: the prompt prefix all rows share is computed once

    @property
    def do_sample(self) -> bool:
        return self.temperature > 0


@dataclass(frozen=True)
class Completion:
    """The text a model added to one prompt, cut after the stop string, why it ended and its tokens."""

    text: str
    finish_reason: str  # "stop" (stop string, end-of-sequence token or complete call) or "length"
    stopped_by: str = ""  # "stop", "eos", "call_complete" or "" (the token limit)
    tokens_in: int | None = None  # the prompt's tokens (padding excluded)
    tokens_out: int | None = None  # the tokens the model generated, up to the one that ended the row (included)


class BatchDecoder:
    """Completes batches of prompt texts with one :class:`LoadedModel`.

    ``decoder_prompt`` (encoder-decoder models only, e.g. CodeT5+): the prompt is fed to the decoder
    as well, which then continues it; such rows cannot share a left-padded decoder batch, so they
    are generated one at a time.
    """

    def __init__(self, loaded: LoadedModel, params: DecodingParams, *, decoder_prompt: bool = False) -> None:
        from transformers import GenerationConfig

        self.loaded = loaded
        self.params = params
        self.on_tokens: Callable[[int], None] | None = None  # told how many tokens each decoding step made
        self.decoder_prompt = decoder_prompt and loaded.encoder_decoder
        tokenizer = loaded.tokenizer
        sampling = {"do_sample": True, "temperature": params.temperature, "top_k": params.top_k,
                    "top_p": params.top_p} if params.do_sample else {"do_sample": False}
        eos = getattr(loaded.model.generation_config, "eos_token_id", None)
        self.eos_ids = set(eos if isinstance(eos, list) else [eos] if eos is not None else [])
        if tokenizer.eos_token_id is not None:
            self.eos_ids.add(tokenizer.eos_token_id)
        self.config = GenerationConfig(
            max_new_tokens=params.max_new_tokens, num_beams=1, pad_token_id=tokenizer.pad_token_id,
            eos_token_id=sorted(self.eos_ids) or None,
            cache_implementation=params.cache_implementation, disable_compile=True, **sampling)

    def complete(self, texts: list[str], *, add_special_tokens: bool = True, seed: int | None = None,
                 logits_processor: list[Any] | None = None,
                 complete: Sequence[Callable[[str], bool] | None] | None = None) -> list[Completion]:
        """One :class:`Completion` per text, in order, generated as one batch (see the class docstring);
        ``logits_processor``: extra transformers logits processors (constrained decoding);
        ``complete``: per text, a predicate on the generated text that ends the row once it holds
        (:mod:`wapii_core.generation.call_stop`)."""
        if self.decoder_prompt and len(texts) > 1:
            return [c for i, text in enumerate(texts)
                    for c in self.complete([text], add_special_tokens=add_special_tokens, seed=seed,
                                           complete=None if complete is None else [complete[i]])]
        import torch
        from transformers import StoppingCriteriaList

        from .stopping import GeneratedTextStop

        tokenizer = self.loaded.tokenizer
        extra: dict[str, Any] = {}
        config = self.config
        encoded = self._shared_prefix_batch(texts, add_special_tokens, extra)
        if encoded is None:
            encoded = tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=add_special_tokens)
        else:  # the shared prefix's cache is already in extra: a dynamic cache continues it
            config = copy.copy(self.config)
            config.cache_implementation = None
        encoded = encoded.to(self.loaded.device)
        if self.decoder_prompt:
            extra["decoder_input_ids"] = encoded["input_ids"].clone()
        prompt_ids = encoded["input_ids"] if (self.decoder_prompt or not self.loaded.encoder_decoder) else None
        start = 0 if prompt_ids is None else prompt_ids.shape[1]
        stopper = GeneratedTextStop(tokenizer, max(start, 1), self.params.stop, complete)
        extra["stopping_criteria"] = StoppingCriteriaList([stopper] + ([_StepCounter(stopper, len(texts), self.on_tokens)]
                                                                      if self.on_tokens else []))
        if logits_processor:
            from transformers import LogitsProcessorList

            extra["logits_processor"] = LogitsProcessorList(logits_processor)
        if seed is not None:
            torch.manual_seed(seed)
        with torch.inference_mode():
            output = self.loaded.model.generate(**encoded, generation_config=config, **extra)
        mask = encoded["attention_mask"]
        first = start if prompt_ids is not None else 1  # an encoder-decoder's output opens with its start token
        completions = []
        for row in range(len(texts)):
            new = output[row, start:].tolist()
            prompt = [] if prompt_ids is None else prompt_ids[row][mask[row].bool()].tolist()
            completion = self._completion(prompt, new, stopper.reasons.get(row))
            stopped_at = stopper.lengths.get(row)
            made = new[first - start:]
            ended = next((i for i, token in enumerate(made) if token in self.eos_ids), None)
            tokens_out = (stopped_at - first if stopped_at is not None else ended + 1 if ended is not None
                          else len(made))  # rows that ended early are padded to the batch's length
            completions.append(replace(completion, tokens_in=int(mask[row].sum()), tokens_out=tokens_out))
        return completions

    def _shared_prefix_batch(self, texts: list[str], add_special_tokens: bool, extra: dict[str, Any]) -> Any:
        """Decoder-only batches whose rows share at least :data:`~.prefix.MIN_SHARED_TOKENS` leading
        tokens: the inputs laid out around that prefix, whose cache goes into ``extra`` (:mod:`.prefix`);
        None otherwise."""
        if not self.params.prefix_cache or len(texts) < 2 or self.loaded.encoder_decoder:
            return None
        import torch
        from transformers import BatchEncoding

        from .prefix import MIN_SHARED_TOKENS, cache_argument, layout, prefix_cache, shared_length

        tokenizer = self.loaded.tokenizer
        rows = tokenizer(texts, add_special_tokens=add_special_tokens)["input_ids"]
        shared = shared_length(rows)
        if shared < MIN_SHARED_TOKENS:
            return None
        ids, mask = layout(rows, shared, tokenizer.pad_token_id)
        model = self.loaded.model
        extra[cache_argument(model)] = prefix_cache(model, rows[0][:shared], len(rows))
        return BatchEncoding({"input_ids": torch.tensor(ids), "attention_mask": torch.tensor(mask)})

    def _completion(self, prompt: list[int], new: list[int], reason: str | None = None) -> Completion:
        ended = next((i for i, token in enumerate(new) if token in self.eos_ids), None)
        if ended is not None:
            new = new[:ended]
        text = self._continuation(prompt, new)
        text, stopped = cut_at_stop(text, self.params.stop)
        by = "stop" if stopped else "eos" if ended is not None else reason or ""
        return Completion(text, "stop" if by else "length", by)

    def _continuation(self, prompt: list[int], new: list[int]) -> str:
        """The text ``new`` adds after ``prompt``: decoded together, so that tokenizers that drop a
        word's leading space at the start of a decode (SentencePiece) keep it."""
        decode = self.loaded.tokenizer.decode
        if not prompt:
            return decode(new, skip_special_tokens=True)
        head = decode(prompt, skip_special_tokens=True)
        whole = decode(prompt + new, skip_special_tokens=True)
        return whole[len(head):] if whole.startswith(head) else decode(new, skip_special_tokens=True)


class _StepCounter:
    """A stopping criterion that never stops: after each decoding step it reports the tokens the step
    made (one per row still running) to ``report`` (the tokens-per-second progress)."""

    def __init__(self, stopper: Any, rows: int, report: Callable[[int], None]) -> None:
        self.stopper, self.rows, self.report = stopper, rows, report

    def __call__(self, input_ids: Any, scores: Any = None, **kwargs: Any) -> Any:
        import torch

        self.report(self.rows - len(self.stopper.reasons))
        return torch.zeros(input_ids.shape[0], dtype=torch.bool, device=input_ids.device)
