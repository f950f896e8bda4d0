"""The ``hf`` backend: local Hugging Face transformers models, batched.

Base models continue the prompt. Instruction models (``chat``) get it through their chat template,
with the assistant's turn already begun with the starter code (``prefill``, the default), so that
they continue the program as a base model would; without prefill their answer is turned back into a
program (:mod:`wapii_core.generation.programs`). Each generation keeps the model's own text
(``raw``) beside the program. With an adapter whose call ends at a cut-off marker, a completion
stops once its call is complete (:mod:`wapii_core.generation.call_stop`, ``stop_at_call``). Every answer
is cached (:mod:`wapii_core.generation.gencache`); the model is loaded only when some request is not cached,
so a rerun of a finished run neither loads the model nor generates anything.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from wapii_core.api import BackendOptions, Generation, GenerationRequest, GenerationTimings, RunContext, WapiiError
from wapii_core.kits.grammar import RunConstraints, is_constrained
from wapii_core.kits.models import (
    CachedAnswer, GenerationCache, cache_key, call_complete_predicate, chat_program, continuation_program,
    is_chat_model, model_input, parse_options,
)

from . import tiny
from .chatmode import is_chat_directory

from .constrained import ConstrainedDecoder
from .decoding import BatchDecoder, Completion, DecodingParams
from .context_fit import check_fits
from .hub_check import check_hub_model
from .loading import LoadedModel, fingerprint_dir, hub_commit, load_model, resolve_device, resolve_dtype, resolve_source
from .options import HFOptions


@dataclass
class _Item:
    request: GenerationRequest
    prompt: str | list[dict[str, str]]  # text for a base model, messages for a chat model
    key: str = ""

    @property
    def prefilled(self) -> bool:
        """Whether the messages end with the assistant's turn begun (the model continues it)."""
        return isinstance(self.prompt, list) and bool(self.prompt) and self.prompt[-1]["role"] == "assistant"


class HFBackend:
    """Generates with a transformers model in this process (see the plugin's README for every option)."""

    name = "hf"
    supports_constraints = True

    def __init__(self, options: BackendOptions, context: RunContext | None = None) -> None:
        if not options.model:
            raise WapiiError("the hf backend needs --model (smollm2-135m, wapii-tiny, a hub id such as "
                             "Qwen/Qwen2.5-Coder-1.5B, a local model directory or a GGUF file)")
        self.options = parse_options(HFOptions, options, self.name)
        self.source = resolve_source(options.model, getattr(context, "progress", None))
        self.device = resolve_device(self.options.device)
        self.dtype = resolve_dtype(self.options.dtype, self.device)
        self.chat = self._is_chat(options.model)
        self.system = self.options.system
        self.prefill = self.chat and self.options.prefill
        self.adapter = getattr(context, "adapter", None)
        self.progress = getattr(context, "progress", None)  # the run's progress bars (model load, tokens)
        # constrained decoding ends each call where its grammar does; the rule would only cut it short.
        # Only for text that continues the starter: a chat answer (no prefill) opens with prose or a
        # fence, which starter + answer would read as a finished call
        self.stop_at_call = (self.options.stop_at_call and not is_constrained(context)
                             and (not self.chat or self.prefill)
                             and call_complete_predicate(self.adapter, "", getattr(context, "setup", None)) is not None)
        self.fingerprint = fingerprint_dir(Path(self.source.location)) if self.source.local else None
        o = self.options
        cache_impl = o.cache_implementation
        if cache_impl == "auto":
            cache_impl = "static" if self.device == "cpu" else "dynamic"
        self.params = DecodingParams(max_new_tokens=o.max_new_tokens, temperature=o.sampled_temperature(options.draws),
                                     top_k=o.top_k_value, top_p=o.top_p, stop=o.stop or None,
                                     cache_implementation=None if cache_impl == "dynamic" else cache_impl,
                                     prefix_cache=o.prefix_cache)
        self.decoder_prompt = (o.decoder_prompt == "true" or
                               (o.decoder_prompt == "auto" and "codet5p" in options.model.lower()))
        self.constraints = None  # constrained settings: the grammar of each request (constrained.py)
        if is_constrained(context):
            if self.chat and not self.prefill:
                raise WapiiError("constrained decoding continues the starter code: run a base model "
                                 "(-O chat=false) or prefill the answer with it (-O prefill=true)")
            self.constraints = RunConstraints(context, references=o.constraint_references, compact=o.constraint_compact)
        self.cache = GenerationCache(enabled=not o.no_cache)
        self.model_calls = 0  # prompts the model generated for (cache hits excluded)
        self._loaded: LoadedModel | None = None
        self._decoder: BatchDecoder | None = None
        self._identity: str | None = self.fingerprint

    def preflight(self, requests: list[GenerationRequest]) -> None:
        """Before anything is generated or written: a hub model must be in the local Hugging Face cache
        or the hub reachable (:mod:`.hub_check`), else one line naming the model; local models pass."""
        if not self.source.local:
            check_hub_model(self.source.location, self.options.revision)

    def _is_chat(self, model: str) -> bool:
        """The ``chat`` option; for ``auto``, the model's name, else (a local model other than
        wapii-tiny, a base model with a chat template for tests) its tokenizer (:mod:`.chatmode`)."""
        if self.options.chat != "auto":
            return self.options.chat == "true"
        if is_chat_model(model):
            return True
        return self.source.local and model != tiny.NAME and is_chat_directory(Path(self.source.location))

    # -- what determines the answers ---------------------------------------------------------

    def _decoding(self) -> dict[str, Any]:
        p = self.params
        out: dict[str, Any] = {"max_new_tokens": p.max_new_tokens, "temperature": p.temperature, "stop": p.stop}
        if p.do_sample:
            out.update(top_k=p.top_k, top_p=p.top_p, seed=self.options.seed or 0)
        return out

    def describe(self) -> dict[str, Any]:
        """The run-identity parameters (device, batch size and threads change no greedy answer)."""
        out: dict[str, Any] = {"model": self.source.name, "revision": self.options.revision,
                               "fingerprint": self.fingerprint, "dtype": self.dtype, "chat": self.chat,
                               **self._decoding()}
        if self.chat:
            out["system"] = self.system
        if self.prefill:
            out["prefill"] = True
        if self.stop_at_call:
            out["stop_at_call"] = True
        if self.decoder_prompt:
            out["decoder_prompt"] = True
        if self.constraints is not None:
            out.update(constraint_references=self.options.constraint_references,
                       constraint_compact=self.options.constraint_compact)
        return out

    def _model_identity(self) -> str:
        """The local fingerprint, or ``<hub id>@<commit>`` (the model is fetched first if it must be)."""
        if self._identity is None:
            commit = hub_commit(self.source.location, self.options.revision)
            if commit is None:
                self._load()
                commit = hub_commit(self.source.location, self.options.revision) or self.options.revision or "main"
            self._identity = f"{self.source.location}@{commit}"
        return self._identity

    def _item(self, req: GenerationRequest) -> _Item:
        """The model's input: the text (base model); the messages with the assistant's turn begun
        with the starter (chat, prefill); the messages asking for an answer (chat without prefill,
        or a request with no starter code, such as ``datasets generate``)."""
        return _Item(req, model_input(req.prompt.text, req.prompt.starter, chat=self.chat, system=self.system,
                                      prefill=self.prefill))

    def _key(self, item: _Item) -> str:
        stop_at_call = {"stop_at_call": True} if self.stop_at_call else {}
        return cache_key(backend=self.name, model=self._model_identity(), dtype=self.dtype, chat=self.chat,
                         input=item.prompt, params={**self._decoding(), **stop_at_call}, draw=item.request.draw,
                         decoder_prompt=self.decoder_prompt, **self._constraint_key(item))

    def _constraint_key(self, item: _Item) -> dict[str, str]:
        """Constrained settings: the grammar's digest, part of the cache key (nothing otherwise)."""
        return {"constraint": self.constraints.row(item.request).constraint.key} if self.constraints else {}

    # -- the model ----------------------------------------------------------------------------

    def _load(self) -> BatchDecoder:
        if self._decoder is None:
            if self.options.threads:
                import torch

                torch.set_num_threads(self.options.threads)
            self._loaded = load_model(self.source, dtype=self.dtype, device=self.device,
                                      revision=self.options.revision, trust_remote_code=self.options.trust_remote_code)
            if self.chat and not getattr(self._loaded.tokenizer, "chat_template", None):
                raise WapiiError(f"model {self.source.name!r} has no chat template; run it as a base model "
                                 "with -O chat=false")
            cache_impl = self.params.cache_implementation
            if cache_impl == "static" and not getattr(self._loaded.model, "_can_compile_fullgraph", False):
                cache_impl = None  # this architecture has no static KV cache
            params = DecodingParams(**{**self.params.__dict__, "cache_implementation": cache_impl})
            self._decoder = BatchDecoder(self._loaded, params, decoder_prompt=self.decoder_prompt)
            if self.constraints is not None:
                self._decoder = ConstrainedDecoder(self._decoder, time_limit=self.options.constraint_timeout)
        return self._decoder

    def _load_with_progress(self) -> BatchDecoder:
        """:meth:`_load`, shown as a stage of its own (a model takes from seconds to minutes to load)."""
        if self._decoder is not None or self.progress is None:
            return self._load()
        done = self.progress("loading model", 1)
        decoder = self._load()
        done(1)
        return decoder

    def _render(self, item: _Item) -> str:
        if isinstance(item.prompt, str):
            return item.prompt
        assert self._loaded is not None
        template = self._loaded.tokenizer.apply_chat_template
        if not item.prefilled:
            return template(item.prompt, tokenize=False, add_generation_prompt=True)
        text = template(item.prompt, tokenize=False, continue_final_message=True)
        begun = item.prompt[-1]["content"]
        if not text.endswith(begun):  # a template that strips the message's trailing whitespace
            kept = begun.rstrip()
            if not text.endswith(kept):
                raise WapiiError(f"the chat template of {self.source.name!r} does not end with the assistant's "
                                 "begun answer; run without prefill (-O prefill=false)")
            text += begun[len(kept):]
        return text

    def _batch_seed(self, batch: list[_Item]) -> int | None:
        if not self.params.do_sample:
            return None
        blob = f"{self.options.seed or 0}|" + "|".join(i.key for i in batch)
        return int.from_bytes(hashlib.sha256(blob.encode()).digest()[:4], "big")

    def _complete(self, decoder: BatchDecoder, batch: list[_Item]) -> list[Completion | str]:
        """Completions for ``batch``; on running out of GPU memory, the two halves separately
        (a single prompt that still does not fit gets an error string)."""
        import torch

        try:
            texts = [self._render(item) for item in batch]
            complete = ([call_complete_predicate(self.adapter, item.request.prompt.starter) for item in batch]
                        if self.stop_at_call else None)
            if self.constraints is not None:
                rows = [self.constraints.row(item.request) for item in batch]
                return list(decoder.complete(texts, rows, add_special_tokens=not self.chat,
                                             seed=self._batch_seed(batch), complete=complete))
            return list(decoder.complete(texts, add_special_tokens=not self.chat, seed=self._batch_seed(batch),
                                         complete=complete))
        except torch.cuda.OutOfMemoryError as exc:  # torch.OutOfMemoryError since torch 2.5
            if self.device.startswith("cuda"):
                torch.cuda.empty_cache()
            if len(batch) == 1:
                return [f"out of memory: {str(exc).splitlines()[0] if str(exc) else 'OutOfMemoryError'}"]
            half = len(batch) // 2
            return self._complete(decoder, batch[:half]) + self._complete(decoder, batch[half:])

    def _program(self, item: _Item, answer: Completion | CachedAnswer, latency_s: float | None = None) -> Generation:
        """The generation of ``answer``, with the prompt as the model received it and what it cost: the
        exact tokens in and out, and ``latency_s`` (the answer's share of its batch's wall time). A cached
        answer cost nothing: its timings are null."""
        req = item.request
        timings = (GenerationTimings(latency_s=latency_s, tokens_in=answer.tokens_in, tokens_out=answer.tokens_out)
                   if isinstance(answer, Completion) else GenerationTimings())
        if self.chat and not item.prefilled:
            code = chat_program(req.prompt.starter, answer.text, req.prompt.call_start)
        else:
            code = continuation_program(req.prompt.starter, answer.text, self.params.stop)
        reason = answer.finish_reason if answer.finish_reason in ("length", "timeout", "unsatisfiable") else "stop"
        return Generation(sample=req.sample.id, draw=req.draw, code=code, finish_reason=reason, raw=answer.text,
                          prompt=item.prompt, timings=timings)  # the text, or the messages the chat template renders

    def generate(self, requests: list[GenerationRequest]) -> Iterator[Generation]:
        """Cached answers first; the rest in batches of ``batch_size`` prompts of similar length."""
        items = [self._item(req) for req in requests]
        for item in items:
            item.key = self._key(item)
        cached = self.cache.get_many(item.key for item in items)
        for item in items:
            if item.key in cached:
                yield self._program(item, cached[item.key])
        misses = sorted((i for i in items if i.key not in cached), key=lambda i: len(str(i.prompt)))
        if not misses:
            return
        decoder = self._load_with_progress()
        assert self._loaded is not None  # a prompt too long for the model ends the run in one line, unrun
        check_fits(self._loaded, {i.request.sample.id: self._render(i) for i in misses}, self.params.max_new_tokens,
                   self.source.name, add_special_tokens=not self.chat)
        if self.progress is not None:
            inner = getattr(decoder, "decoder", decoder)
            inner.on_tokens = self.progress("tokens", len(misses) * self.params.max_new_tokens)
        size = self.options.batch_size
        for start in range(0, len(misses), size):
            batch = misses[start:start + size]
            began = time.perf_counter()
            results = self._complete(decoder, batch)
            share = (time.perf_counter() - began) / len(batch)  # a batch's rows are generated together
            self.model_calls += len(batch)
            self.cache.put_many({item.key: CachedAnswer(text=r.text, finish_reason=r.finish_reason)
                                 for item, r in zip(batch, results)
                                 if isinstance(r, Completion) and r.finish_reason != "timeout"})  # timing-dependent
            for item, result in zip(batch, results):
                req = item.request
                if isinstance(result, str):
                    yield Generation(sample=req.sample.id, draw=req.draw, finish_reason="error", error=result)
                else:
                    yield self._program(item, result, share)

    def close(self) -> None:
        """Free the model (and GPU memory) and close the cache."""
        self._decoder = None
        self._loaded = None
        if self.device.startswith("cuda"):
            import torch

            torch.cuda.empty_cache()
        self.cache.close()
