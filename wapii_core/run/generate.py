"""The run's generation stage: the requests a run still needs, the backend started and checked, and
each generation it yields stored as it comes (an interrupted run loses only what was not yielded)."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Any, Callable, Iterator

from wapii_core.base import plugins
from wapii_core.base.errors import GenerationPending, WapiiError
from wapii_core.base.jsonwalk import lone_surrogate
from wapii_core.base.model import Generation, GenerationRequest, GenerationTimings, Sample
from wapii_core.base.protocols import BackendOptions, RunContext
from wapii_core.base.text import exception_line
from wapii_core.judge.unstarted import provisional
from wapii_core.run.plan import RAG_FORMAT_OPTION, Progress, RunConfig
from wapii_core.store.rundir import RunStore

__all__ = ["generate_pending", "generated", "open_backend", "pending_requests", "preflight", "recorded", "resume_note",
           "start_backend"]


def pending_requests(samples: list[Sample], draws: int, finished: set[str],
                     prompt: Callable[[Sample], Any], only: set[str] | None = None) -> list[GenerationRequest]:
    """The requests a run still needs, in dataset order (with ``only``, of those keys alone: a shard's);
    ``prompt(sample)`` is built once per sample that has any draw left, and shared by its draws."""
    todo = []
    for sample in samples:
        missing = [d for d in range(draws) if f"{sample.id}#{d}" not in finished
                   and (only is None or f"{sample.id}#{d}" in only)]
        if missing:
            text = prompt(sample)
            todo.extend(GenerationRequest(sample=sample, draw=d, prompt=text) for d in missing)
    return todo


def preflight(backend: Any, name: str, requests: list[GenerationRequest]) -> None:
    """The backend's own cheap checks before it generates ``requests`` (its ``preflight(requests)``):
    a missing key, an unreachable server, an unknown model end the run in one line."""
    try:
        backend.preflight(requests)
    except WapiiError:
        raise
    except Exception as exc:
        raise WapiiError(f"backend {name!r}: preflight failed: {exception_line(exc)}") from exc


def start_backend(name: str, options: BackendOptions, context: RunContext) -> Any:
    """The backend, or a one-line error when its factory fails (a model that does not load, a plugin's bug)."""
    factory = plugins.backends.get(name)
    try:
        return factory(options, context)
    except WapiiError:
        raise
    except Exception as exc:
        raise WapiiError(f"backend {name!r}: failed to start: {exception_line(exc)}") from exc


def generated(backend: Any, name: str, requests: list[GenerationRequest]) -> Iterator[Generation]:
    """``backend.generate(requests)``; whatever it raises other than a :class:`WapiiError` (or
    :class:`GenerationPending`) becomes a :class:`WapiiError`."""
    try:
        for gen in backend.generate(requests):
            for field in ("code", "error"):
                if isinstance(getattr(gen, field, None), str) and lone_surrogate(getattr(gen, field)):
                    raise WapiiError(f"backend {name!r}: answered {gen.sample} with text that cannot be stored (a lone "
                                     f"surrogate in its {field}); what it generated before is kept")
            yield gen
    except (WapiiError, GenerationPending):
        raise
    except Exception as exc:
        raise WapiiError(f"backend {name!r}: failed: {exception_line(exc)} (what it generated so far is kept; "
                         "run the same command again to resume)") from exc


def recorded(gen: Generation, prompts: dict[str, str]) -> Generation:
    """``gen`` as the record keeps it: with its prompt (the text the backend was given, unless the
    backend said what it sent: chat messages) and its timings (unknown ones null)."""
    update: dict[str, Any] = {}
    if gen.prompt is None:
        update["prompt"] = prompts.get(gen.key)
    if gen.timings is None:
        update["timings"] = GenerationTimings()
    return gen.model_copy(update=update) if update else gen


def resume_note(out_dir: Path, store: RunStore, keys: list[str]) -> str:
    """What a resumed run kept: ``resuming runs/x: kept 120 of 395 generations and 118 results``."""
    finished = store.finished_generations()
    kept = sum(key in finished for key in keys)
    judged = sum(not provisional(store.results.get(key)) for key in keys)
    failed = sum(g.key in set(keys) for g in store.failed_generations())
    retry = f"; retrying {failed} failed generation(s)" if failed else ""
    if kept == judged == len(keys):
        return f"{out_dir}: already complete ({len(keys)} samples generated and judged; --force starts over)"
    return (f"resuming {out_dir}: kept {kept} of {len(keys)} generations and {judged} results{retry} "
            "(--force starts over)")


def generate_pending(store: RunStore, backend: Any, name: str, todo: list[GenerationRequest], progress: Progress) -> None:
    """Generate ``todo`` with ``backend`` (registered as ``name``), after its preflight, storing each
    generation as it comes; a backend whose answers come later leaves run.json saying which run the
    directory's paid-for work belongs to."""
    if not todo:
        return
    preflight(backend, name, todo)
    advance = progress("generating", len(todo))
    prompts = {req.key: req.prompt.text for req in todo}
    try:
        for gen in generated(backend, name, todo):
            store.add_generation(recorded(gen, prompts))
            advance(1)
    except GenerationPending:
        store.write_run()  # the directory holds work paid for: say which run it belongs to
        raise


def open_backend(stack: ExitStack, config: RunConfig, context: RunContext) -> Any:
    """The run's backend, started with its options (closed with ``stack``); a one-line error when it
    cannot decode under the run's constrained setting (a backend that replays stored programs needs not)."""
    options = BackendOptions(model=config.model, draws=config.draws, generations=config.generations,
                             extra={k: v for k, v in config.backend_options.items() if k != RAG_FORMAT_OPTION})
    backend = start_backend(config.backend, options, context)
    stack.callback(backend.close)
    if config.setting.startswith("constrained") and not backend.supports_constraints and backend.kind != "replays":
        raise WapiiError(f"backend {config.backend!r} cannot decode under constraints "
                         f"(setting {config.setting!r})")
    return backend
