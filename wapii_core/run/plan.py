"""The run's plan: what ``wapii run`` was asked (:class:`RunConfig`), the dataset and the samples it
covers, each input checked before any worker starts, the adapter opened (not started), the versions
and the record (run.json) of a new run. The first stage of :mod:`wapii_core.run.runner`'s pipeline:
plan → generate (:mod:`~wapii_core.run.generate`) → judge (:mod:`~wapii_core.run.judge_stage`) →
aggregate (:mod:`~wapii_core.run.aggregate`)."""

from __future__ import annotations

import datetime as _dt
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from pydantic import BaseModel, Field, model_validator

from wapii_core.base import plugins
from wapii_core.base.errors import WapiiError
from wapii_core.base.model import MAX_DRAWS, Sample, Setup
from wapii_core.base.protocols import Adapter, Dataset
from wapii_core.run.shards import Shard, shard_keys
from wapii_core.store.record import RECORD_VERSION, RunRecord

__all__ = ["ANSWERS", "Inputs", "Progress", "RAG_FORMAT_OPTION", "RunConfig", "SETTINGS", "check_context",
           "check_workflow", "checked_inputs", "config_of", "load_dataset", "metric_names", "new_run_record",
           "no_progress", "open_adapter", "rag_format", "refuse_unanswering", "resolved", "run_keys", "select_samples",
           "versions", "adapter_checked"]


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


def no_progress(stage: str, total: int) -> Callable[[int], None]:
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


SETTINGS = ("unconstrained", "constrained", "rag", "constrained-rag", "spec")
"""Decoding settings: constrained decoding from the spec and/or retrieved endpoint documentation."""


ANSWERS = ("empty", "mock")
"""What answers each program's requests (``--answers``): ``empty``, the published first-call
benchmark's ``200`` with no body (the program stops at its first request); ``mock``, the stateful
mock derived from the sample's API description (:mod:`wapii_core.mock`), fresh for each sample and
draw, so that the program runs on and its exchanges are recorded. The first request is judged either way."""


@dataclass
class Inputs:
    """What ``run`` and ``evaluate`` check before any worker starts: the run's configuration, its
    dataset, the samples and the generation keys (``<sample>#<draw>``) it covers, and the metric
    providers it applies."""

    config: RunConfig
    dataset: Dataset
    samples: list[Sample]
    keys: list[str]
    metrics: list[str]


def checked_inputs(config: RunConfig, task_set: dict[str, Any] | None = None) -> Inputs:
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
    return Inputs(config, dataset, samples, run_keys(samples, config), metrics)


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


def run_keys(samples: list[Sample], config: RunConfig) -> list[str]:
    """The run's generation keys (``<sample>#<draw>``), in dataset order: its shard's alone when sharded."""
    return shard_keys([f"{s.id}#{d}" for s in samples for d in range(config.draws)], config.shard)


def open_adapter(stack: ExitStack, name: str, note: Callable[[str], None] = lambda text: None) -> Adapter:
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


def check_context(adapter: Adapter, name: str, samples: list[Sample]) -> None:
    """Refuses, in one line, tasks with code context for an adapter whose prompts cannot continue that code."""
    with_context = [s.id for s in samples if s.context is not None]
    if with_context and not getattr(adapter.capabilities, "code_context", False):
        able = _adapters_declaring("code_context")
        raise WapiiError(f"adapter {name!r} cannot run tasks inside JavaScript code ({len(with_context)} such, "
                         f"e.g. {with_context[0]}); "
                         + (f"use {' or '.join(able)}" if able else "no installed adapter declares 'code_context'"))


def _adapters_declaring(capability: str) -> list[str]:
    """The installed adapters whose capabilities declare ``capability`` (each created, not started, and
    closed; one that cannot be created is left out: its own run says why)."""
    names = []
    for name in plugins.adapters.names():
        try:
            adapter = plugins.adapters.get(name)()
        except Exception:  # a broken plugin is named when it is used, not in another adapter's error
            continue
        try:
            if getattr(adapter.capabilities, capability, False):
                names.append(name)
        finally:
            adapter.close()
    return names


def refuse_unanswering(adapter: Adapter, config: RunConfig) -> None:
    """``--answers mock`` with an adapter that cannot deliver answers to its programs ends the run in one line."""
    if config.answers != "empty" and not adapter.capabilities.answers:
        raise WapiiError(f"adapter {config.adapter!r} cannot deliver answers to its programs (--answers "
                         f"{config.answers}): its capabilities do not declare 'answers'; run it with --answers empty")


def check_workflow(adapter: Adapter, config: RunConfig, samples: list[Sample]) -> None:
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


def resolved(config: RunConfig) -> RunConfig:
    """``config`` with its directories absolute: run.json is read from any working directory."""
    return config.model_copy(update={key: getattr(config, key).resolve() for key in ("data_dir", "dataset_dir")
                                     if getattr(config, key) is not None})


def adapter_checked(adapter: Adapter, inputs: Inputs) -> RunConfig:
    """The run's configuration once checked against what its adapter can do (constrained decoding, code
    context, workflows, answers: a one-line error each), with what a workflow setup implies and the
    comparison mode settled (the adapter's default unless ``--mode`` named one)."""
    from wapii_core.base.declared import backend_kind
    from wapii_core.judge.generations import default_mode

    config = inputs.config
    if config.setting.startswith("constrained") and backend_kind(config.backend) != "replays" \
            and not adapter.capabilities.constrained:
        raise WapiiError(f"adapter {config.adapter!r} cannot constrain generation (setting {config.setting!r}); "
                         "run it unconstrained, or pick an adapter that can (wapii adapters list)")
    check_context(adapter, config.adapter, inputs.samples)
    check_workflow(adapter, config, inputs.samples)
    if config.setup == Setup.workflow:  # a workflow's program runs against its task's mock, judged on the wire
        config = config.model_copy(update={"answers": "mock", "mode": "wire"})
    refuse_unanswering(adapter, config)
    return config.model_copy(update={"mode": config.mode or default_mode(adapter)})
