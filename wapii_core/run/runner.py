"""The pipeline: generate → extract → execute → compare → score, resumably.

Generation hands the backend every pending request in one call (it keeps as many in flight as it
is configured for and yields each answer as it comes); judging goes in chunks of :data:`CHUNK`.
"""

from __future__ import annotations

import datetime as _dt
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from pydantic import BaseModel, Field, model_validator

from wapii_core.base import plugins
from wapii_core.base.errors import GenerationPending, WapiiError
from wapii_core.base.text import exception_line
from wapii_core.base.jsonwalk import lone_surrogate
from wapii_core.base.model import (MAX_DRAWS, Generation, GenerationRequest, GenerationTimings, Sample, SampleResult,
                                   Setup)
from wapii_core.base.protocols import MODES, Adapter, BackendOptions, Dataset, RunContext
from wapii_core.judge.generations import Judge, default_mode
from wapii_core.judge.unstarted import provisional
from wapii_core.run.shards import Shard, shard_keys
from wapii_core.store.lock import RunLock
from wapii_core.store.record import RECORD_VERSION, RunRecord, Summary
from wapii_core.store.rundir import REPORT_FILE, SUMMARY_FILE, RunStore, write_atomic, write_json

__all__ = ["CHUNK", "MODES", "SETTINGS", "Judge", "RunConfig", "new_run_record", "evaluate", "finish",
           "load_dataset", "metric_names", "pending_requests", "run", "select_samples"]

CHUNK = 64
"""Samples judged per step: small enough that an interrupted run loses little. (Generation is not
chunked: the backend gets every pending request at once and yields each as it is ready.)"""


class RunConfig(BaseModel):
    """Everything ``wapii run`` was asked to do (the CLI boundary)."""

    dataset: str = "demo"
    data_dir: Path | None = None
    dataset_dir: Path | None = None  # a directory in the WAPIIBench layout instead of a registered dataset
    adapter: str = ""  # "": the one the dataset names (wapii_core.base.declared.default_adapter)
    backend: str = ""  # "": the one that renders the answer key (wapii_core.base.declared.default_backend)
    model: str | None = None
    setup: Setup = Setup.full
    setting: str = "unconstrained"
    mode: str | None = None  # None: the adapter's default_mode, else "reference"
    draws: int = Field(default=1, ge=1, le=MAX_DRAWS)
    answers: str = "empty"  # what answers each program's requests: one of ANSWERS (--answers)
    generations: Path | None = None
    backend_options: dict[str, str] = Field(default_factory=dict)
    metrics: list[str] = Field(default_factory=list)  # providers applied besides the default ones
    default_metrics: bool = True  # False: only ``metrics`` (--no-default-metrics)
    limit: int | None = None  # only the first N samples (quick checks)
    apis: list[str] | None = None  # only these APIs
    shard: Shard | None = None  # only this shard's (task, draw) pairs (wapii_core.run.shards)
    sample: int | None = Field(default=None, ge=1)  # N tasks drawn stratified by API (--sample)
    sample_seed: int = 0  # the draw's seed (--seed)

    @model_validator(mode="after")
    def _declared_defaults(self) -> "RunConfig":
        """The adapter and backend left unnamed, from what the dataset and the backends declare."""
        from wapii_core.base.declared import default_adapter, default_backend

        if not self.adapter:
            self.adapter = default_adapter(self.dataset, self.dataset_dir)
        if not self.backend:
            self.backend = default_backend()
        return self


Progress = Callable[[str, int], Any]
"""``progress(stage, total) -> advance(n)`` factory; the CLI passes rich progress bars."""


def _no_progress(stage: str, total: int) -> Callable[[int], None]:
    return lambda n=1: None


def load_dataset(name: str, data_dir: Path | None, dataset_dir: Path | None = None) -> Dataset:
    """The dataset a registered loader gives (or, with ``dataset_dir``, that directory's, named after
    it), checked (:func:`wapii_core.datasets.loader.check_dataset`)."""
    from wapii_core.datasets.loader import check_dataset, load_dataset_dir

    if dataset_dir is not None:
        return check_dataset(load_dataset_dir(dataset_dir, dataset_dir.resolve().name))
    loader = plugins.datasets.get(name)
    return check_dataset(loader(data_dir))


def select_samples(dataset: Dataset, config: RunConfig) -> list[Sample]:
    samples = dataset.samples
    if config.apis:
        unknown = sorted(set(config.apis) - {s.api for s in samples})
        if unknown:
            known = sorted({s.api for s in samples})
            raise WapiiError(f"dataset {dataset.name!r} has no API {', '.join(unknown)}{_did_you_mean(unknown, known)} "
                             f"(its APIs: {', '.join(known)})")
        samples = [s for s in samples if s.api in config.apis]
    if config.sample is not None:
        from wapii_core.datasets.sampling import stratified_sample

        samples = stratified_sample(samples, lambda s: s.api, config.sample, config.sample_seed)
    if config.limit is not None:
        samples = samples[: config.limit]
    return samples


def _did_you_mean(unknown: list[str], known: list[str]) -> str:
    from wapii_core.base.errors import did_you_mean

    return "".join(did_you_mean(name, known) for name in unknown[:1])


def versions() -> dict[str, str]:
    """Versions of wapii and of every installed wapii plugin distribution."""
    import importlib.metadata as md

    out = {"wapii": md.version("wapii")}
    for ep in md.entry_points(group=plugins.GROUP):
        if ep.dist is not None:
            out[ep.dist.name] = ep.dist.version
    return out


def git_commit() -> str | None:
    """The commit of the wapii checkout, when it runs from one."""
    import subprocess

    from wapii_core.base.paths import package_dir

    root = package_dir().parent
    if not (root / ".git").exists():
        return None
    try:
        done = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None


def new_run_record(config: RunConfig, dataset: Dataset, backend: Any,
                 task_set: dict[str, Any] | None = None) -> RunRecord:
    """The contents of run.json (``task_set``: the samples a backend's generations hold, when it
    holds only some: :func:`wapii_core.run.tasks.backend_tasks`)."""
    return RunRecord(
        record_version=RECORD_VERSION,
        dataset=dataset.name,
        dataset_sha256=dataset.sha256,
        dataset_source=str(dataset.source),
        data_dir=str(config.data_dir.resolve()) if config.data_dir else None,
        dataset_dir=str(config.dataset_dir.resolve()) if config.dataset_dir else None,
        adapter=config.adapter,
        backend=config.backend,
        backend_params=backend.describe(),
        model=config.model,
        setup=config.setup.value,
        setting=config.setting,
        mode=config.mode or "reference",
        draws=config.draws,
        answers=config.answers,
        limit=config.limit,
        apis=config.apis,
        sample=config.sample,
        sample_seed=config.sample_seed if config.sample is not None else None,
        metrics=config.metrics,
        default_metrics=config.default_metrics,
        versions=versions(),
        git_commit=git_commit(),
        created=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        shard=config.shard.model_dump() if config.shard is not None else None,
        task_set=task_set,
    )


def config_of(record: RunRecord, data_dir: Path | None = None) -> RunConfig:
    """The configuration that made the run ``record`` describes, its dataset read from ``data_dir``
    when given (else from where the run found it)."""
    stored_source = Path(record.dataset_source).parent if record.dataset_source else None
    stored = Path(record.data_dir) if record.data_dir else stored_source
    return RunConfig(dataset=record.dataset, data_dir=data_dir or stored,
                     dataset_dir=Path(record.dataset_dir) if record.dataset_dir and data_dir is None else None,
                     adapter=record.adapter, backend=record.backend, model=record.model, setup=Setup(record.setup),
                     mode=record.mode, setting=record.setting, draws=record.draws, answers=record.answers,
                     limit=record.limit,
                     apis=record.apis, shard=Shard.model_validate(record.shard) if record.shard else None,
                     sample=record.sample, sample_seed=record.sample_seed or 0, metrics=list(record.metrics),
                     default_metrics=record.default_metrics)


def _chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


SETTINGS = ("unconstrained", "constrained", "rag", "constrained-rag", "spec")
"""Decoding settings: constrained decoding from the spec and/or retrieved endpoint documentation."""

ANSWERS = ("empty", "mock")
"""What answers each program's requests (``--answers``): ``empty``, the published first-call
benchmark's ``200`` with no body (the program stops at its first request); ``mock``, the stateful
mock derived from the sample's API description (:mod:`wapii_core.mock`), fresh for each sample and
draw, so that the program runs on and its exchanges are recorded. The first request is judged either way."""


@dataclass
class _Inputs:
    """What ``run`` and ``evaluate`` check before any worker starts: the run's configuration, its
    dataset, the samples and the generation keys (``<sample>#<draw>``) it covers, and the metric
    providers it applies."""

    config: RunConfig
    dataset: Dataset
    samples: list[Sample]
    keys: list[str]
    metrics: list[str]


def _checked_inputs(config: RunConfig, task_set: dict[str, Any] | None = None) -> _Inputs:
    """The run's inputs, each checked (a bad setting, metric, dataset or selection ends it in one line);
    ``task_set``: the samples run.json recorded (a partial replay's), else every selected one."""
    from wapii_core.run.tasks import recorded_tasks

    if config.setting not in SETTINGS:
        raise WapiiError(f"unknown setting {config.setting!r}{_did_you_mean([config.setting], list(SETTINGS))} "
                         f"(known: {', '.join(SETTINGS)})")
    rag_format(config)
    if config.answers not in ANSWERS:
        raise WapiiError(f"unknown --answers {config.answers!r}{_did_you_mean([config.answers], list(ANSWERS))} "
                         f"(known: {', '.join(ANSWERS)})")
    metrics = metric_names(config.metrics, config.default_metrics)
    dataset = load_dataset(config.dataset, config.data_dir, config.dataset_dir)
    samples = recorded_tasks(select_samples(dataset, config), task_set)
    return _Inputs(config, dataset, samples, _keys(samples, config), metrics)


RAG_FORMAT_OPTION = "rag_format"
"""``-O rag_format=docs|typescript``: how a rag setting shows the retrieved endpoints (the run's own
option: it is recorded with the backend options and never passed to the backend)."""


def rag_format(config: RunConfig) -> str:
    """The run's ``-O rag_format`` (default ``docs``); one line when unknown or given without a rag setting."""
    from wapii_core.generation.rag import RAG_FORMATS, RAG_SETTINGS

    value = config.backend_options.get(RAG_FORMAT_OPTION)
    if value is None:
        return RAG_FORMATS[0]
    if value not in RAG_FORMATS:
        raise WapiiError(f"unknown -O {RAG_FORMAT_OPTION}={value} (known: {', '.join(RAG_FORMATS)})")
    if config.setting not in RAG_SETTINGS:
        raise WapiiError(f"-O {RAG_FORMAT_OPTION} applies to the settings {', '.join(RAG_SETTINGS)}, "
                         f"not {config.setting!r}")
    return value


def _keys(samples: list[Sample], config: RunConfig) -> list[str]:
    """The run's generation keys (``<sample>#<draw>``), in dataset order: its shard's alone when sharded."""
    return shard_keys([f"{s.id}#{d}" for s in samples for d in range(config.draws)], config.shard)


def _adapter(stack: ExitStack, name: str, note: Callable[[str], None] = lambda text: None) -> Adapter:
    """The adapter, not started (closed with ``stack``): its caller starts the workers once every
    input is checked, so that a run refused for bad input starts no worker. The Debian packages it
    declares are installed first where missing (as ``wapii setup`` does; one line where they cannot be)."""
    from wapii_core.base.debian import ensure_packages

    adapter = plugins.adapters.get(name)()
    stack.callback(adapter.close)
    installed = ensure_packages(list(adapter.capabilities.system_packages), name)
    if installed:
        note(f"{name}: installed {' '.join(installed)} (its set-up, on first use)")
    return adapter


def _check_context(adapter: Adapter, name: str, samples: list[Sample]) -> None:
    """Refuses, in one line, tasks with code context for an adapter whose prompts cannot continue that code."""
    with_context = [s.id for s in samples if s.context is not None]
    if with_context and not getattr(adapter.capabilities, "code_context", False):
        raise WapiiError(f"adapter {name!r} cannot run tasks inside JavaScript code ({len(with_context)} such, "
                         f"e.g. {with_context[0]}); use axios_js or fetch_js")


def _refuse_unanswering(adapter: Adapter, config: RunConfig) -> None:
    """``--answers mock`` with an adapter that cannot deliver answers to its programs ends the run in one line."""
    if config.answers != "empty" and not adapter.capabilities.answers:
        raise WapiiError(f"adapter {config.adapter!r} cannot deliver answers to its programs (--answers "
                         f"{config.answers}): its capabilities do not declare 'answers'; run it with --answers empty")


def mock_responders(dataset: Dataset, samples: list[Sample] | None = None) -> Callable[[Generation], Any]:
    """A fresh responder of the :class:`~wapii_core.mock.SpecMock` of each generation's sample's API
    description, seeded by the sample and draw: the same generation gets the same answers in any run,
    on any machine, in any order. The mocks of the APIs of ``samples`` (default: the dataset's) are
    derived here, once each, so that a description the mock cannot read ends the run before any
    program runs."""
    import hashlib

    from wapii_core.mock import SpecMock

    apis = {sample.id: sample.api for sample in dataset.samples}
    mocks = {api: SpecMock.for_spec(dataset.specs[api])
             for api in dict.fromkeys(sample.api for sample in (dataset.samples if samples is None else samples))}

    def responder(gen: Generation) -> Any:
        seed = int.from_bytes(hashlib.sha256(f"{gen.sample}#{gen.draw}".encode()).digest()[:4], "big")
        api = apis[gen.sample]
        if api not in mocks:
            mocks[api] = SpecMock.for_spec(dataset.specs[api])
        return mocks[api].responder(seed=seed)

    return responder


def _check_workflow(adapter: Adapter, config: RunConfig, samples: list[Sample]) -> None:
    """Refuses, in one line, a workflow setup over one-call tasks, workflow tasks in a one-call setup,
    and an adapter that cannot run workflows (docs/workflows.md)."""
    workflows = [s.id for s in samples if s.workflow]
    if config.setup == Setup.workflow:
        single = [s.id for s in samples if not s.workflow]
        if single:
            raise WapiiError(f"--setup workflow runs workflow tasks (with 'calls'); dataset {config.dataset!r} has "
                             f"{len(single)} one-call task(s), e.g. {single[0]} (try --dataset workflows)")
        if not getattr(adapter.capabilities, "workflows", False):
            raise WapiiError(f"adapter {config.adapter!r} cannot run workflow tasks (--setup workflow): its "
                             "capabilities do not declare 'workflows' (wapii adapters list)")
        if config.setting.startswith("constrained"):
            raise WapiiError(f"--setting {config.setting} constrains one call; a workflow's program is several "
                             "(run --setup workflow unconstrained, rag or spec)")
    elif workflows:
        raise WapiiError(f"{len(workflows)} task(s) are workflows (with 'calls'), e.g. {workflows[0]}: run them "
                         "with --setup workflow")


def _judge_for(adapter: Adapter, inputs: _Inputs) -> Any:
    config = inputs.config
    _check_workflow(adapter, config, inputs.samples)
    if config.setup == Setup.workflow:
        from wapii_core.workflows.programs import WorkflowJudge

        judge = WorkflowJudge(adapter, inputs.dataset, constrained=config.setting.startswith("constrained"))
        judge.check(inputs.samples)
        return judge
    _refuse_unanswering(adapter, config)
    responders = mock_responders(inputs.dataset, inputs.samples) if config.answers == "mock" else None
    return Judge(adapter, inputs.dataset, config.mode, constrained=config.setting.startswith("constrained"),
                 responders=responders)


def _scored(store: RunStore, judge: Any, inputs: _Inputs, progress: Progress) -> Summary:
    """Judge what is pending, then write summary.json and report.md."""
    _judge_pending(store, judge, inputs.keys, progress)
    return finish(store, inputs.dataset, inputs.samples, inputs.keys, inputs.metrics)


def run(config: RunConfig, out_dir: Path, progress: Progress = _no_progress, force: bool = False,
        note: Callable[[str], None] = lambda text: None) -> Summary:
    """Run (or resume) one benchmark run into ``out_dir`` and return its summary.

    ``force`` starts over in a directory that holds another (or the same) run; ``note`` receives one
    line saying what a resumed run kept."""
    from wapii_core.base.declared import backend_kind
    from wapii_core.generation.rag import setting_prompt

    config = config.model_copy(update={key: getattr(config, key).resolve() for key in ("data_dir", "dataset_dir")
                                       if getattr(config, key) is not None})  # run.json is read from any cwd
    inputs = _checked_inputs(config)
    dataset, samples, keys = inputs.dataset, inputs.samples, inputs.keys
    with ExitStack() as stack:
        lock = stack.enter_context(RunLock(out_dir))  # released last, after the store has closed
        adapter = _adapter(stack, config.adapter, note)  # started when there is something to judge
        if config.setting.startswith("constrained") and backend_kind(config.backend) != "replays" \
                and not adapter.capabilities.constrained:
            raise WapiiError(f"adapter {config.adapter!r} cannot constrain generation (setting {config.setting!r}); "
                             "run it unconstrained, or pick an adapter that can (wapii adapters list)")
        _check_context(adapter, config.adapter, samples)
        _check_workflow(adapter, config, samples)
        if config.setup == Setup.workflow:  # a workflow's program runs against its task's mock, judged on the wire
            config = config.model_copy(update={"answers": "mock", "mode": "wire"})
        _refuse_unanswering(adapter, config)
        config = config.model_copy(update={"mode": config.mode or default_mode(adapter)})
        inputs.config = config
        judge = _judge_for(adapter, inputs)
        options = BackendOptions(model=config.model, draws=config.draws, generations=config.generations,
                                 extra={k: v for k, v in config.backend_options.items() if k != RAG_FORMAT_OPTION})
        context = RunContext(dataset, adapter, config.setup, config.mode, setting=config.setting, run_dir=out_dir,
                             progress=progress, oracle_calls=getattr(judge, "oracle_calls", None))
        backend = _start_backend(config.backend, options, context)
        stack.callback(backend.close)
        from wapii_core.run.tasks import backend_tasks

        samples, task_set = backend_tasks(samples, backend.tasks(), config.generations)
        keys = _keys(samples, config)
        inputs.samples, inputs.keys = samples, keys
        constrained = config.setting.startswith("constrained")
        if constrained and not backend.supports_constraints and backend.kind != "replays":
            raise WapiiError(f"backend {config.backend!r} cannot decode under constraints "
                             f"(setting {config.setting!r})")
        store = RunStore.open(out_dir, new_run_record(config, dataset, backend, task_set), lock=lock, fresh=force)
        stack.callback(store.close)
        if store.generations or store.results:
            note(resume_note(out_dir, store, keys))

        todo = pending_requests(samples, config.draws, set(store.finished_generations()),
                                lambda s: setting_prompt(adapter.prompt(s, config.setup, dataset), s, dataset,
                                                         config.setting, rag_format(config)),
                                only=set(keys) if config.shard is not None else None)
        if todo:
            _preflight(backend, config.backend, todo)
            advance_gen = progress("generating", len(todo))
            prompts = {req.key: req.prompt.text for req in todo}
            try:
                for gen in _generate(backend, config.backend, todo):
                    store.add_generation(_recorded(gen, prompts))
                    advance_gen(1)
            except GenerationPending:
                store.write_run()  # the directory holds work paid for: say which run it belongs to
                raise
        return _scored(store, judge, inputs, progress)


def _recorded(gen: Generation, prompts: dict[str, str]) -> Generation:
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


def _preflight(backend: Any, name: str, requests: list[GenerationRequest]) -> None:
    """The backend's own cheap checks before it generates ``requests`` (its ``preflight(requests)``):
    a missing key, an unreachable server, an unknown model end the run in one line."""
    try:
        backend.preflight(requests)
    except WapiiError:
        raise
    except Exception as exc:
        raise WapiiError(f"backend {name!r}: preflight failed: {exception_line(exc)}") from exc


def metric_names(added: list[str] | None = None, defaults: bool = True) -> list[str]:
    """The metric providers a run applies: the default ones (every provider registered with
    ``default=True``, the built-in ones among them) unless ``defaults`` is false, then ``added``.

    Every name is resolved before any work, so an unknown or broken provider is refused at once."""
    names = [name for name in plugins.metrics.names() if plugins.metrics.entries()[name].default] if defaults else []
    names += [name for name in added or () if name not in names]
    if not names:
        raise WapiiError("no metric provider to apply: --no-default-metrics needs at least one --metric NAME")
    for name in names:
        plugins.metrics.get(name)
    return names


def _start_backend(name: str, options: BackendOptions, context: RunContext) -> Any:
    """The backend, or a one-line error when its factory fails (a model that does not load, a plugin's bug)."""
    factory = plugins.backends.get(name)
    try:
        return factory(options, context)
    except WapiiError:
        raise
    except Exception as exc:
        raise WapiiError(f"backend {name!r}: failed to start: {exception_line(exc)}") from exc


def _generate(backend: Any, name: str, requests: list[GenerationRequest]) -> Iterator[Generation]:
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


def _judge_pending(store: RunStore, judge: Any, keys: list[str], progress: Progress) -> None:
    finished = store.finished_generations()
    pending = [finished[k] for k in keys if k in finished and provisional(store.results.get(k))]  # unrun ones again
    advance = progress("judging", len(pending))
    if pending:
        # Only now, with every input checked, the backend's checks passed and the generations in: a run
        # that ends before (bad input, a failed preflight, a backend that fails) starts no worker and
        # prints no sandbox warning, and one with nothing left to judge starts none either.
        judge.adapter.start()
    for chunk in _chunks(pending, CHUNK):
        for result in judge(chunk):
            store.add_result(result)
        advance(len(chunk))


def evaluate(out_dir: Path, progress: Progress = _no_progress, data_dir: Path | None = None,
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
        inputs = _checked_inputs(config, record.task_set)
        if inputs.dataset.sha256 != record.dataset_sha256:
            raise WapiiError(f"{out_dir}: the run was made on another version of dataset {inputs.dataset.name!r} "
                             f"(sha256 {record.dataset_sha256}, found {inputs.dataset.sha256})")
        adapter = _adapter(stack, config.adapter)
        judge = _judge_for(adapter, inputs)
        store = RunStore.open(out_dir, record.model_copy(update={"record_version": RECORD_VERSION}), lock=lock)
        stack.callback(store.close)
        store.reset_results()
        return _scored(store, judge, inputs, progress)


def rejudged(config: RunConfig, generations: list[Generation], task_set: dict[str, Any] | None = None,
             progress: Progress = _no_progress) -> list[SampleResult]:
    """``generations`` judged afresh, as a run of ``config`` (over ``task_set``) judges them: what
    ``wapii merge --verify`` compares each shard's stored verdicts with."""
    with ExitStack() as stack:
        inputs = _checked_inputs(config, task_set)
        judge = _judge_for(_adapter(stack, config.adapter), inputs)
        finished = [g for g in generations if g.error is None]
        advance = progress("verifying", len(finished))
        if finished:
            judge.adapter.start()
        out: list[SampleResult] = []
        for chunk in _chunks(finished, CHUNK):
            out.extend(judge(chunk))
            advance(len(chunk))
        return out


def finish(store: RunStore, dataset: Dataset, samples: list[Sample], keys: list[str],
           names: list[str] | None = None) -> Summary:
    """Aggregate the stored results into summary.json and report.md, applying the metric providers
    ``names`` (default: :func:`metric_names`); what each provider declares of its values is stored
    under ``metric_kinds``, so that a report shows them without the plugin installed."""
    from wapii_core.judge.metric_guard import apply_provider
    from wapii_core.base.declared import top_level
    from wapii_core.base.metric_kinds import record
    from wapii_core.report.tables import markdown_report
    from wapii_core.store.rundir import ordered

    results = ordered([store.results[k] for k in keys if k in store.results], keys)
    failed = [g for g in store.failed_generations() if g.key in set(keys) and g.key not in store.results]
    missing = [k for k in keys if provisional(store.results.get(k))]
    store.write_run()
    summary = Summary(record_version=RECORD_VERSION, complete=not missing, samples=len(keys), tasks=len(samples),
                      tasks_of=len(dataset.samples), judged=len(results),
                      not_executed=sum(result.provisional for result in results),
                      failed_generations=[{"sample": g.sample, "draw": g.draw, "error": g.error} for g in failed],
                      mode=store.run.mode, setup=store.run.setup)
    paper: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    kinds: dict[str, Any] = {}
    for name in names if names is not None else metric_names():
        provider = plugins.metrics.get(name)
        kinds[name] = record(provider.values)
        outcome = apply_provider(provider, results, dataset)
        if not top_level(provider):
            if outcome.value == {} and not outcome.failure:
                kinds.pop(name)  # nothing to say about this run (the workflows provider on one-call tasks)
                continue
            extra[name] = outcome.recorded()
            continue
        paper = outcome.value or {}  # the paper's rows live at the top level
        if outcome.failure:
            extra[name] = outcome.failure
    summary = Summary.model_validate({**summary.data(), **paper, "metrics": extra, "metric_kinds": kinds})
    write_json(store.directory / SUMMARY_FILE, summary.data())
    write_atomic(store.directory / REPORT_FILE, markdown_report([(store.directory.name, store.run, summary)]))
    return summary
