"""The ``openai`` backend: any OpenAI-compatible server (OpenAI, vLLM, TGI, llama.cpp, OpenRouter).

Base models go to the completions endpoint and continue the prompt; instruction models go to the
chat endpoint and their answer is turned back into a program (:mod:`wapii_core.generation.programs`). Requests run
``concurrency`` at a time on threads; each answer is cached (:mod:`wapii_core.generation.gencache`) and
yielded as soon as it arrives, so the run store flushes it at once and an interrupted run loses
at most the requests in flight. A request that still fails after its retries yields a Generation
with ``error`` set: the run records it as failed and retries it when resumed. Constrained settings
send each request's grammar to the server (:mod:`.guided`).
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any, Iterator

from wapii_core.api import BackendOptions, Generation, GenerationRequest, GenerationTimings, RunContext, WapiiError
from wapii_core.kits.grammar import is_constrained
from wapii_core.kits.models import (
    CachedAnswer, GenerationCache, cache_key, call_complete_predicate, chat_program, continuation_program,
    model_input,
)

from .calls import Call
from .client import Answer, ApiClient, CallFailed
from .guided import grammar_fields, guided_grammars
from .options import OpenAIOptions, parse_options
from .retry import RetryPolicy


def server_stop(prompt: str, stop: str) -> bool:
    """Whether a server may be given ``stop`` for a completion of ``prompt``: not when the prompt ends
    with the beginning of ``stop`` (a server matching on prompt and answer together would stop the
    answer before it begins, as ``transformers serve`` does). The answer is cut here in any case."""
    return not any(prompt.endswith(stop[:n]) for n in range(1, len(stop)))


class OpenAIBackend:
    """Completions from an OpenAI-compatible HTTP API (see the plugin's README for every option)."""

    name = "openai"

    def __init__(self, options: BackendOptions, context: RunContext | None = None) -> None:
        if not options.model:
            raise WapiiError("the openai backend needs --model (the name the server knows the model by)")
        self.model = options.model
        self.options = parse_options(OpenAIOptions, options, self.name)
        self.chat = self.options.is_chat(self.model)
        self.endpoint = "chat" if self.chat else "completions"
        self.system = self.options.system
        self.prefill = self.chat and self.options.prefill
        self.streaming = self.options.stream and self.options.batch == "false"  # batches are not streamed
        self.adapter = getattr(context, "adapter", None)
        self.temperature = self.options.sampled_temperature(options.draws)
        o = self.options
        self.guided = guided_grammars(context, o.guided, self.chat, references=o.constraint_references,
                                      compact=o.constraint_compact)
        self.supports_constraints = self.guided is not None  # what a constrained run checks
        # the hf backend's rule, applied to the streamed answer where it continues the starter (a base
        # model, or a prefilled chat; constrained runs end where the grammar does)
        self.stop_at_call = (o.stop_at_call and self.streaming and not is_constrained(context)
                             and (not self.chat or self.prefill)
                             and call_complete_predicate(self.adapter, "", getattr(context, "setup", None)) is not None)
        self.cache = GenerationCache(enabled=not self.options.no_cache)
        self.model_calls = 0  # requests sent to a server (cache hits excluded); for tests and logs
        self._count_lock = threading.Lock()
        self._client: ApiClient | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._context = context

    # -- what determines the answers ---------------------------------------------------------

    def _params(self) -> dict[str, Any]:
        """Decoding parameters as sent (and as part of the cache key)."""
        o = self.options
        params: dict[str, Any] = {"max_new_tokens": o.max_new_tokens, "temperature": self.temperature,
                                  "top_p": o.top_p}
        if o.top_k is not None:
            params["top_k"] = o.top_k
        if o.stop:
            params["stop"] = o.stop
            params["stop_at"] = self._stop_at()
        if o.seed is not None:
            params["seed"] = o.seed
        if self.stop_at_call:
            params["stop_at_call"] = True
        return params

    def _stop_at(self) -> str:
        """Where the stop string is applied (recorded in the run): ``client`` when streaming or for
        chat (whose rendered prompt the client does not see); else ``server-if-safe``: sent to the
        server unless the prompt ends with its beginning (:func:`server_stop`). The answer is cut
        after it here in every case."""
        return "client" if self.streaming or self.chat else "server-if-safe"

    def _input(self, req: GenerationRequest) -> str | list[dict[str, str]]:
        """The prompt as the model gets it: built in the core, the same as the ``hf`` backend's."""
        return model_input(req.prompt.text, req.prompt.starter, chat=self.chat, system=self.system,
                           prefill=self.prefill)

    def describe(self) -> dict[str, Any]:
        """The run-identity parameters: no key, no URLs, no concurrency (see the README)."""
        out: dict[str, Any] = {"model": self.model, "endpoint": self.endpoint, **self._params()}
        if self.chat:
            out["system"] = self.system
        if self.prefill:
            out["prefill"] = True
        if self.options.cache_tag:
            out["cache_tag"] = self.options.cache_tag
        if self.guided is not None:
            out.update(guided=self.guided.style, constraint_references=self.options.constraint_references,
                       constraint_compact=self.options.constraint_compact)
        return out

    def _call(self, req: GenerationRequest) -> Call:
        params = self._params()
        body: dict[str, Any] = {"model": self.model, self.options.max_tokens_param: params["max_new_tokens"],
                                "temperature": params["temperature"], "top_p": params["top_p"], "n": 1}
        if "top_k" in params:
            body["top_k"] = params["top_k"]
        prompt = self._input(req)
        if "stop" in params and self._stop_at() != "client" and isinstance(prompt, str) and server_stop(prompt, params["stop"]):
            body["stop"] = [params["stop"]]
        if "seed" in params:
            body["seed"] = params["seed"] + req.draw  # one seed per draw, or every draw would agree
        if isinstance(prompt, str):
            body["prompt"] = prompt
        else:
            body["messages"] = prompt
            if self.prefill:  # vLLM's (and SGLang's) way to continue the assistant's begun turn
                body.update(continue_final_message=True, add_generation_prompt=False)
        prompt_input = body.get("messages", body.get("prompt"))
        grammar: dict[str, str] = {}
        if self.guided is not None:
            constraint = self.guided.of(req)
            if constraint is None:
                return Call(req, body, "", unsatisfiable=True)
            body.update(grammar_fields(self.guided.style, constraint.grammar))
            grammar["constraint"] = constraint.key
        key = cache_key(backend=self.name, model=self.model, endpoint=self.endpoint, input=prompt_input,
                        params=params, draw=req.draw, tag=self.options.cache_tag, **grammar)
        return Call(req, body, key)

    # -- generation ---------------------------------------------------------------------------

    def _program(self, req: GenerationRequest, answer: CachedAnswer | Answer) -> Generation:
        """The generation of ``answer``, with the prompt as sent and what the server said it cost (a cached
        answer cost nothing: its timings are null)."""
        timings = (GenerationTimings(latency_s=answer.latency_s, queue_s=answer.queue_s, tokens_in=answer.tokens_in,
                                     tokens_out=answer.tokens_out) if isinstance(answer, Answer) else GenerationTimings())
        prompt = self._input(req)
        if self.chat and not self.prefill:
            code = chat_program(req.prompt.starter, answer.text, req.prompt.call_start)
        else:
            code = continuation_program(req.prompt.starter, answer.text, self.options.stop or None)
        reason = "length" if answer.finish_reason == "length" else "stop"
        return Generation(sample=req.sample.id, draw=req.draw, code=code, finish_reason=reason, raw=answer.text,
                          prompt=prompt, timings=timings)

    def _ensure_started(self) -> tuple[ApiClient, ThreadPoolExecutor]:
        if self._client is None or self._pool is None:
            o = self.options
            self._client = ApiClient(o.base_url, os.environ.get(o.api_key_env) or None, timeout=o.timeout,
                                     policy=RetryPolicy.of(o), connections=o.concurrency, stream=o.stream,
                                     adaptive=o.adaptive)
            self._pool = ThreadPoolExecutor(max_workers=o.concurrency, thread_name_prefix="wapii-openai")
        return self._client, self._pool

    def _ask(self, client: ApiClient, call: Call) -> Answer:
        with self._count_lock:
            self.model_calls += 1
        complete = call_complete_predicate(self.adapter, call.request.prompt.starter) if self.stop_at_call else None
        answer = client.complete(self.endpoint, call.body, self.options.stop or None, complete)
        self.cache.put(call.key, CachedAnswer(text=answer.text, finish_reason=answer.finish_reason))
        return answer

    def generate(self, requests: list[GenerationRequest]) -> Iterator[Generation]:
        """Yield one Generation per request: cached answers first, then as the server answers."""
        calls = []
        for req in requests:
            call = self._call(req)
            if call.unsatisfiable:
                yield Generation(sample=req.sample.id, draw=req.draw, code=req.prompt.starter,
                                 finish_reason="unsatisfiable", raw="")
            else:
                calls.append(call)
        cached = self.cache.get_many(c.key for c in calls)
        for call in calls:
            if call.key in cached:
                yield self._program(call.request, cached[call.key])
        misses = [c for c in calls if c.key not in cached]
        if not misses:
            return
        if self.options.batch != "false":  # provider-side batches or vLLM's batch runner
            yield from self._batched(misses)
            return
        client, pool = self._ensure_started()
        pending: dict[Future[Answer], Call] = {pool.submit(self._ask, client, c): c for c in misses}
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    call = pending.pop(future)
                    req = call.request
                    try:
                        answer = future.result()
                    except CallFailed as exc:
                        yield Generation(sample=req.sample.id, draw=req.draw, finish_reason="error", error=str(exc))
                        continue
                    yield self._program(req, answer)
        finally:
            for future in pending:  # the consumer stopped early (interrupt): drop what has not started
                future.cancel()

    def _batched(self, misses: list[Call]) -> Iterator[Generation]:
        """The generations for ``misses`` (requests not in the cache) through batches (:mod:`.batch`): each
        answer is cached and yielded as its batch ends; requests with the same cache key share a line."""
        from .batch import BatchRun, batch_answers

        context = self._context
        run = BatchRun(self.options, self.model, self.endpoint, context.run_dir if context else None,
                       context.progress if context else None)
        try:
            for call, outcome in batch_answers(run, misses):
                req = call.request
                if isinstance(outcome, str):
                    yield Generation(sample=req.sample.id, draw=req.draw, finish_reason="error", error=outcome)
                else:
                    self.cache.put(call.key, CachedAnswer(text=outcome.text, finish_reason=outcome.finish_reason))
                    yield self._program(req, outcome)
        finally:
            self.model_calls += run.submitted
            run.close()

    def preflight(self, requests: list[GenerationRequest]) -> None:
        """Before a run generates ``requests``: the key, the servers, the model (:mod:`.preflight`)."""
        from .preflight import preflight

        preflight(self.options, self.model, map(self._call, requests), self.cache.get_many)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        self.cache.close()
