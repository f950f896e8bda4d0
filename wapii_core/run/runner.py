"""The pipeline: generate → extract → execute → compare → score, resumably.

Generation hands the backend every pending request in one call (it keeps as many in flight as it
is configured for and yields each answer as it comes); judging goes in chunks of :data:`CHUNK`.
"""

from __future__ import annotations

import datetime as _dt
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Callable, Iterator

from pydantic import BaseModel, Field

from wapii_core.base import plugins
from wapii_core.base.errors import GenerationPending, WapiiError, one_line
from wapii_core.base.jsonwalk import unstorable
from wapii_core.base.model import ERROR_KINDS, Generation, GenerationRequest, Sample, SampleResult, Setup
from wapii_core.base.protocols import MODES, Adapter, BackendOptions, Dataset, RunContext
from wapii_core.judge.capture_limits import oversized, too_many_values
from wapii_core.store.lock import RunLock
from wapii_core.store.rundir import REPORT_FILE, SUMMARY_FILE, RunStore, write_atomic, write_json

CHUNK = 64
"""Samples judged per step: small enough that an interrupted run loses little. (Generation is not
chunked: the backend gets every pending request at once and yields each as it is ready.)"""
MAX_REQUEST_DEPTH = 100
"""Lists and objects a normalised request may nest (the result store writes at most ~250)."""
MAX_DETAIL = 500
"""Characters of a capture's detail (an exception message the program chose) stored in the results."""


def _shortened(text: str) -> str:
    """``text`` cut to :data:`MAX_DETAIL` characters (with ``...`` when cut)."""
    return text if len(text) <= MAX_DETAIL else text[:MAX_DETAIL - 3] + "..."


def _utf8_text(text: str) -> str:
    """``text`` with any lone surrogate written as its escape (the results are UTF-8)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class RunConfig(BaseModel):
    """Everything ``wapii run`` was asked to do (the CLI boundary)."""

    dataset: str = "demo"
    data_dir: Path | None = None
    dataset_dir: Path | None = None  # a directory in the WAPIIBench layout instead of a registered dataset
    adapter: str = "axios_js"
    backend: str = "oracle"
    model: str | None = None
    setup: Setup = Setup.full
    setting: str = "unconstrained"
    mode: str | None = None  # None: the adapter's default_mode, else "reference"
    draws: int = Field(default=1, ge=1)
    generations: Path | None = None
    backend_options: dict[str, str] = Field(default_factory=dict)
    metrics: list[str] = Field(default_factory=list)  # providers applied besides the default ones
    default_metrics: bool = True  # False: only ``metrics`` (--no-default-metrics)
    limit: int | None = None  # only the first N samples (quick checks)
    apis: list[str] | None = None  # only these APIs


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


def describe_run(config: RunConfig, dataset: Dataset, backend: Any) -> dict[str, Any]:
    """The contents of run.json."""
    return {
        "dataset": dataset.name,
        "dataset_sha256": dataset.sha256,
        "dataset_source": str(dataset.source),
        "dataset_dir": str(config.dataset_dir.resolve()) if config.dataset_dir else None,
        "adapter": config.adapter,
        "backend": config.backend,
        "backend_params": backend.describe(),
        "model": config.model,
        "setup": config.setup.value,
        "setting": config.setting,
        "mode": config.mode,
        "draws": config.draws,
        "limit": config.limit,
        "apis": config.apis,
        "versions": versions(),
        "git_commit": git_commit(),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }


def _chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


SETTINGS = ("unconstrained", "constrained", "rag", "constrained-rag")
"""Decoding settings: constrained decoding from the spec and/or retrieved endpoint documentation."""



def default_mode(adapter: Adapter) -> str:
    """The comparison mode an adapter is judged in unless told otherwise (its ``default_mode``)."""
    return adapter.default_mode


class Judge:
    """Extract, execute, normalise and compare generations with one adapter and the dataset's specs."""

    def __init__(self, adapter: Adapter, dataset: Dataset, mode: str | None = None, constrained: bool = False) -> None:
        from wapii_core.judge.compare import judge
        from wapii_core.spec.index import SpecIndex
        from wapii_core.judge.wire import judge_wire

        mode = mode or default_mode(adapter)
        if mode not in MODES:
            raise WapiiError(f"unknown comparison mode {mode!r} (known: {', '.join(MODES)})")
        self._judge = judge
        self._judge_wire = judge_wire
        self.constrained = constrained  # a constrained generation cut off by the token limit is incomplete
        self.adapter = adapter
        self.dataset = dataset
        self.strict = mode == "strict"
        self.mode = mode
        self._specs = {api: SpecIndex.load(path) for api, path in dataset.specs.items()}
        self._samples = {s.id: s for s in dataset.samples}

    def __call__(self, generations: list[Generation]) -> list[SampleResult]:
        """One result per generation, in order.

        Nothing one program does can stop the others from being judged: an extraction or a
        ``normalise`` that raises, a captured request without the neutral shape
        (:mod:`wapii_core.judge.request_schema`) or a comparison that raises makes that sample a
        ``runtime_error`` whose detail says why (``bad_capture: ...`` for what the capture held).
        """
        extractions = [self._extract(gen) for gen in generations]
        calls = [call for call, _, _ in extractions if call is not None]
        captures = iter(self.adapter.execute(calls) if calls else [])
        results = []
        for gen, (call, error, detail) in zip(generations, extractions):
            request = None
            if call is not None:
                capture = next(captures)
                error, detail = capture.error, capture.detail and _utf8_text(_shortened(capture.detail))
                if capture.request is not None and error is None:
                    request, detail = self._normalised(capture.request)
                    error = None if request is not None else "runtime_error"
            results.append(self._compare(self._samples[gen.sample], request, error, call, detail, gen.draw))
        return results

    def _extract(self, gen: Generation) -> tuple[str | None, str | None, str | None]:
        """``(call, error, detail)`` of one generation (metrics.md §2)."""
        if gen.finish_reason in ("timeout", "unsatisfiable"):
            return None, gen.finish_reason, None
        if self.constrained and gen.finish_reason == "length":
            return None, "incomplete_request", None
        try:
            ext = self.adapter.extract(gen.code or "")
        except Exception as exc:  # e.g. a parser's MemoryError on absurdly nested code
            return None, "runtime_error", f"extraction failed: {one_line(exc)}"
        return ext.call, ext.error, None

    def _normalised(self, captured: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
        """``(request, None)``, or ``(None, "bad_capture: ...")`` when the capture is too large to be
        judged (:mod:`wapii_core.judge.capture_limits`: measured before ``normalise`` decodes it, its
        values counted after), when ``normalise`` fails or when its result does not have the neutral
        shape."""
        from wapii_core.judge.request_schema import BadCapture, check_request

        try:
            problem = oversized(captured)
            if problem is not None:
                return None, f"bad_capture: the captured request {problem}"
            request = self.adapter.normalise(captured)
            problem = too_many_values(request) or unstorable(request, MAX_REQUEST_DEPTH)  # too deep, a lone surrogate
            if problem is not None:
                return None, _utf8_text(f"bad_capture: the captured request {problem}")
            return check_request(request), None
        except BadCapture as exc:
            return None, _utf8_text(f"bad_capture: {exc}")
        except Exception as exc:  # the capture is the program's doing: so is whatever it makes normalise raise
            return None, _utf8_text(f"bad_capture: normalise failed: {one_line(exc)}")

    def _compare(self, sample: Sample, request: dict[str, Any] | None, error: str | None, call: str | None,
                 detail: str | None, draw: int) -> SampleResult:
        """The sample's result; a comparison that raises on the request makes it ``runtime_error``."""
        try:
            return self._judged(sample, request, error, call, detail, draw)
        except Exception as exc:
            if request is None and error in ERROR_KINDS:
                raise  # not the capture's doing: the expected request or the spec is at fault
            detail = _utf8_text(f"bad_capture: comparison failed: {one_line(exc)}")
            return self._judged(sample, None, "runtime_error", call, detail, draw)

    def _judged(self, sample: Sample, request: dict[str, Any] | None, error: str | None, call: str | None,
                detail: str | None, draw: int) -> SampleResult:
        spec = self._specs[sample.api]
        if self.mode == "wire":
            result = self._judge_wire(sample, spec, request, error, call=call, error_detail=detail, draw=draw)
        else:
            result = self._judge(sample, spec, request, error, call=call, error_detail=detail, draw=draw,
                                 strict=self.strict)
        result.mode = self.mode
        return result


def run(config: RunConfig, out_dir: Path, progress: Progress = _no_progress, force: bool = False,
        note: Callable[[str], None] = lambda text: None) -> dict[str, Any]:
    """Run (or resume) one benchmark run into ``out_dir`` and return its summary.

    ``force`` starts over in a directory that holds another (or the same) run; ``note`` receives one
    line saying what a resumed run kept."""
    from wapii_core.generation.rag import setting_prompt

    if config.setting not in SETTINGS:
        raise WapiiError(f"unknown setting {config.setting!r} (known: {', '.join(SETTINGS)})")
    metrics = metric_names(config.metrics, config.default_metrics)
    dataset = load_dataset(config.dataset, config.data_dir, config.dataset_dir)
    samples = select_samples(dataset, config)
    with ExitStack() as stack:
        lock = stack.enter_context(RunLock(out_dir))  # released last, after the store has closed
        adapter = plugins.adapters.get(config.adapter)()
        stack.callback(adapter.close)
        config = config.model_copy(update={"mode": config.mode or default_mode(adapter)})
        options = BackendOptions(model=config.model, draws=config.draws, generations=config.generations,
                                 extra=dict(config.backend_options))
        context = RunContext(dataset, adapter, config.setup, config.mode, setting=config.setting, run_dir=out_dir,
                             progress=progress)
        backend = _start_backend(config.backend, options, context)
        stack.callback(backend.close)
        constrained = config.setting.startswith("constrained")
        if constrained and not backend.supports_constraints and config.backend != "replay":
            raise WapiiError(f"backend {config.backend!r} cannot decode under constraints "
                             f"(setting {config.setting!r})")
        judge = Judge(adapter, dataset, config.mode, constrained=constrained)
        store = RunStore.open(out_dir, describe_run(config, dataset, backend), lock=lock, fresh=force)
        stack.callback(store.close)
        # Every input is checked by now (dataset, options, generations, out dir): a bad one has ended
        # the run in one line before any worker started (or warned about its sandbox). The workers
        # start while the prompts are built and the backend generates.
        adapter.start()
        keys = [f"{s.id}#{d}" for s in samples for d in range(config.draws)]
        if store.generations or store.results:
            note(resume_note(out_dir, store, keys))

        todo = pending_requests(samples, config.draws, set(store.finished_generations()),
                                lambda s: setting_prompt(adapter.prompt(s, config.setup, dataset), s, dataset,
                                                         config.setting))
        if todo:
            _preflight(backend, config.backend, todo)
            advance_gen = progress("generating", len(todo))
            try:
                for gen in _generate(backend, config.backend, todo):
                    store.add_generation(gen)
                    advance_gen(1)
            except GenerationPending:
                store.write_run()  # the directory holds work paid for: say which run it belongs to
                raise
        _judge_pending(store, judge, keys, progress)
        return finish(store, dataset, samples, keys, metrics)


def resume_note(out_dir: Path, store: RunStore, keys: list[str]) -> str:
    """What a resumed run kept: ``resuming runs/x: kept 120 of 395 generations and 118 results``."""
    finished = store.finished_generations()
    kept = sum(key in finished for key in keys)
    judged = sum(key in store.results for key in keys)
    failed = sum(g.key in set(keys) for g in store.failed_generations())
    retry = f"; retrying {failed} failed generation(s)" if failed else ""
    return (f"resuming {out_dir}: kept {kept} of {len(keys)} generations and {judged} results{retry} "
            "(--force starts over)")


def pending_requests(samples: list[Sample], draws: int, finished: set[str],
                     prompt: Callable[[Sample], Any]) -> list[GenerationRequest]:
    """The requests a run still needs, in dataset order; ``prompt(sample)`` is built once per sample
    that has any draw left, and shared by its draws."""
    todo = []
    for sample in samples:
        missing = [d for d in range(draws) if f"{sample.id}#{d}" not in finished]
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
        raise WapiiError(f"backend {name!r}: preflight failed: {one_line(exc)}") from exc


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
        raise WapiiError(f"backend {name!r}: failed to start: {one_line(exc)}") from exc


def _generate(backend: Any, name: str, requests: list[GenerationRequest]) -> Iterator[Generation]:
    """``backend.generate(requests)``; whatever it raises other than a :class:`WapiiError` (or
    :class:`GenerationPending`) becomes a :class:`WapiiError`."""
    try:
        yield from backend.generate(requests)
    except (WapiiError, GenerationPending):
        raise
    except Exception as exc:
        raise WapiiError(f"backend {name!r}: failed: {one_line(exc)} (what it generated so far is kept; "
                         "run the same command again to resume)") from exc


def _judge_pending(store: RunStore, judge: Judge, keys: list[str], progress: Progress) -> None:
    finished = store.finished_generations()
    pending = [finished[k] for k in keys if k in finished and k not in store.results]
    advance = progress("judging", len(pending))
    for chunk in _chunks(pending, CHUNK):
        for result in judge(chunk):
            store.add_result(result)
        advance(len(chunk))


def evaluate(out_dir: Path, progress: Progress = _no_progress, data_dir: Path | None = None,
             metrics: list[str] | None = None, default_metrics: bool = True) -> dict[str, Any]:
    """Re-execute and re-score every stored generation of a run directory, applying the default
    metric providers (unless ``default_metrics`` is false) and ``metrics``."""
    from wapii_core.store.rundir import load_run

    names = metric_names(metrics, default_metrics)
    with ExitStack() as stack:
        lock = stack.enter_context(RunLock(out_dir, create=False))
        run_info = load_run(out_dir)
        stored_dir = run_info.get("dataset_dir")
        dataset = load_dataset(run_info["dataset"], data_dir or _stored_data_dir(run_info),
                               Path(stored_dir) if stored_dir and data_dir is None else None)
        if dataset.sha256 != run_info.get("dataset_sha256"):
            raise WapiiError(f"{out_dir}: the run was made on another version of dataset {dataset.name!r} "
                             f"(sha256 {run_info.get('dataset_sha256')}, found {dataset.sha256})")
        config = RunConfig(dataset=run_info["dataset"], adapter=run_info["adapter"], backend=run_info["backend"],
                           setup=Setup(run_info["setup"]), mode=run_info.get("mode", "reference"),
                           setting=run_info.get("setting", "unconstrained"),
                           draws=run_info.get("draws", 1), limit=run_info.get("limit"), apis=run_info.get("apis"))
        samples = select_samples(dataset, config)
        keys = [f"{s.id}#{d}" for s in samples for d in range(config.draws)]
        adapter = plugins.adapters.get(config.adapter)()
        stack.callback(adapter.close)
        judge = Judge(adapter, dataset, config.mode, constrained=config.setting.startswith("constrained"))
        store = RunStore.open(out_dir, run_info, lock=lock)
        stack.callback(store.close)
        adapter.start()  # after every check, as in run()
        store.reset_results()
        _judge_pending(store, judge, keys, progress)
        return finish(store, dataset, samples, keys, names)


def _stored_data_dir(run_info: dict[str, Any]) -> Path | None:
    source = run_info.get("dataset_source")
    return Path(source).parent if source else None


def finish(store: RunStore, dataset: Dataset, samples: list[Sample], keys: list[str],
           names: list[str] | None = None) -> dict[str, Any]:
    """Aggregate the stored results into summary.json and report.md, applying the metric providers
    ``names`` (default: :func:`metric_names`); what each provider declares of its values is stored
    under ``metric_kinds``, so that a report shows them without the plugin installed."""
    from wapii_core.judge.metric_guard import apply_provider
    from wapii_core.base.metric_kinds import record
    from wapii_core.report.tables import markdown_report
    from wapii_core.store.rundir import ordered

    results = ordered([store.results[k] for k in keys if k in store.results], keys)
    failed = [g for g in store.failed_generations() if g.key in set(keys) and g.key not in store.results]
    missing = [k for k in keys if k not in store.results]
    store.write_run()
    summary: dict[str, Any] = {
        "complete": not missing,
        "samples": len(keys),
        "judged": len(results),
        "failed_generations": [{"sample": g.sample, "draw": g.draw, "error": g.error} for g in failed],
        "mode": store.run.get("mode", "reference"),
        "setup": store.run.get("setup"),
    }
    extra: dict[str, Any] = {}
    kinds: dict[str, Any] = {}
    for name in names if names is not None else metric_names():
        provider = plugins.metrics.get(name)
        kinds[name] = record(provider.values)
        outcome = apply_provider(provider, results, dataset)
        if name != "wapii":
            extra[name] = outcome.recorded()
            continue
        summary.update(outcome.value or {})  # the paper's rows live at the top level
        if outcome.failure:
            extra[name] = outcome.failure
    if extra:
        summary["metrics"] = extra
    summary["metric_kinds"] = kinds
    write_json(store.directory / SUMMARY_FILE, summary)
    write_atomic(store.directory / REPORT_FILE, markdown_report([(store.directory.name, store.run, summary)]))
    return summary
