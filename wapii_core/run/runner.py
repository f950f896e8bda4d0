"""The pipeline: generate → extract → execute → compare → score, resumably.

A run goes through four stages, each its own module: the plan (:mod:`~wapii_core.run.plan`: the
configuration, dataset, samples and adapter, each checked, and run.json), generation
(:mod:`~wapii_core.run.generate`: the backend gets every pending request in one call and yields each
answer as it comes), judging (:mod:`~wapii_core.run.judge_stage`: in chunks of
:data:`~wapii_core.run.judge_stage.CHUNK`) and aggregation (:mod:`~wapii_core.run.aggregate`:
summary.json and report.md). This module drives them: :func:`run`, :func:`evaluate` (re-judging a run
directory) and :func:`rejudged` (re-judging generations in memory).
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Any, Callable

from wapii_core.base.errors import WapiiError
from wapii_core.base.model import Generation, SampleResult
from wapii_core.base.protocols import RunContext
from wapii_core.judge.generations import Judge
from wapii_core.run.aggregate import finish
from wapii_core.run.generate import generate_pending, open_backend, pending_requests, resume_note
from wapii_core.run.judge_stage import judge_for, judge_pending, judged
from wapii_core.run.plan import (Inputs, Progress, RunConfig, adapter_checked, checked_inputs, config_of, load_dataset,
                                 new_run_record, no_progress, open_adapter, rag_format, resolved, run_keys)
from wapii_core.store.lock import RunLock
from wapii_core.store.record import RECORD_VERSION, Summary
from wapii_core.store.rundir import RunStore

__all__ = ["Judge", "RunConfig", "evaluate", "load_dataset", "rejudged", "run"]


def run(config: RunConfig, out_dir: Path, progress: Progress = no_progress, force: bool = False,
        note: Callable[[str], None] = lambda text: None) -> Summary:
    """Run (or resume) one benchmark run into ``out_dir`` and return its summary.

    ``force`` starts over in a directory that holds another (or the same) run; ``note`` receives one
    line saying what a resumed run kept."""
    from wapii_core.generation.rag import setting_prompt
    from wapii_core.run.tasks import backend_tasks

    inputs = checked_inputs(resolved(config))
    dataset = inputs.dataset
    with ExitStack() as stack:
        lock = stack.enter_context(RunLock(out_dir))  # released last, after the store has closed
        adapter = open_adapter(stack, inputs.config.adapter, note)  # started when there is something to judge
        config = inputs.config = adapter_checked(adapter, inputs)
        judge = judge_for(adapter, inputs)
        context = RunContext(dataset, adapter, config.setup, config.mode, setting=config.setting, run_dir=out_dir,
                             progress=progress, oracle_calls=getattr(judge, "oracle_calls", None))
        backend = open_backend(stack, config, context)
        samples, task_set = backend_tasks(inputs.samples, backend.tasks(), config.generations)
        keys = run_keys(samples, config)
        inputs.samples, inputs.keys = samples, keys
        store = RunStore.open(out_dir, new_run_record(config, dataset, backend, task_set), lock=lock, fresh=force)
        stack.callback(store.close)
        if store.generations or store.results:
            note(resume_note(out_dir, store, keys))
        todo = pending_requests(samples, config.draws, set(store.finished_generations()),
                                lambda s: setting_prompt(adapter.prompt(s, config.setup, dataset), s, dataset,
                                                         config.setting, rag_format(config)),
                                only=set(keys) if config.shard is not None else None)
        generate_pending(store, backend, config.backend, todo, progress)
        return _scored(store, judge, inputs, progress)


def _scored(store: RunStore, judge: Any, inputs: Inputs, progress: Progress) -> Summary:
    """Judge what is pending, then write summary.json and report.md."""
    judge_pending(store, judge, inputs.keys, progress)
    return finish(store, inputs.dataset, inputs.samples, inputs.keys, inputs.metrics)


def evaluate(out_dir: Path, progress: Progress = no_progress, data_dir: Path | None = None,
             metrics: list[str] | None = None, default_metrics: bool = True) -> Summary:
    """Re-execute and re-score every stored generation of a run directory, applying the default
    metric providers (unless ``default_metrics`` is false) and ``metrics``."""
    from wapii_core.store.record import load_run

    with ExitStack() as stack:
        lock = stack.enter_context(RunLock(out_dir, create=False))
        record = load_run(out_dir)
        recorded = config_of(record, data_dir)
        wanted = recorded.metrics + [name for name in metrics or () if name not in recorded.metrics]
        config = recorded.model_copy(update={"metrics": wanted,
                                             "default_metrics": default_metrics and recorded.default_metrics})
        record = record.model_copy(update={"metrics": config.metrics, "default_metrics": config.default_metrics})
        inputs = checked_inputs(config, record.task_set)
        if inputs.dataset.sha256 != record.dataset_sha256:
            raise WapiiError(f"{out_dir}: the run was made on another version of dataset {inputs.dataset.name!r} "
                             f"(sha256 {record.dataset_sha256}, found {inputs.dataset.sha256})")
        adapter = open_adapter(stack, config.adapter)
        judge = judge_for(adapter, inputs)
        store = RunStore.open(out_dir, record.model_copy(update={"record_version": RECORD_VERSION}), lock=lock)
        stack.callback(store.close)
        store.reset_results()
        return _scored(store, judge, inputs, progress)


def rejudged(config: RunConfig, generations: list[Generation], task_set: dict[str, Any] | None = None,
             progress: Progress = no_progress) -> list[SampleResult]:
    """``generations`` judged afresh, as a run of ``config`` (over ``task_set``) judges them: what
    ``wapii merge --verify`` compares each shard's stored verdicts with."""
    with ExitStack() as stack:
        inputs = checked_inputs(config, task_set)
        judge = judge_for(open_adapter(stack, config.adapter), inputs)
        finished = [g for g in generations if g.error is None]
        return list(judged(judge, finished, progress("verifying", len(finished))))
