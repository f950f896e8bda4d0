"""Run directories as the viewer reads them: each sample's judged result joined with its generation.

A sample's record is the result line and the generation line of the same sample and draw, merged
(the generation's ``error`` and ``timings`` kept as ``generation_error`` and ``generation_timings``), plus what the page needs beside the run
files: the task text, the expected request (the result line's, else the dataset's ``config``), the
endpoints of the expected and of the captured request (``METHOD /template``) and the spec excerpt
of each. Everything from the dataset and the specs is optional: a run whose dataset is no longer
at hand is still shown, without task texts and excerpts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from wapii_core.base.errors import WapiiError
from wapii_core.base.jsonwalk import bounded_dumps
from wapii_core.base.protocols import Dataset
from wapii_core.store.record import RunRecord, Summary, latest, load_run, load_summary, read_generations, read_results

EXCERPT_CHARS = 20_000
"""A spec excerpt longer than this is cut (an operation with a huge inline schema)."""


@dataclass
class ViewRun:
    """One run directory, read for the viewer."""

    directory: Path
    name: str
    run: RunRecord
    summary: Summary
    samples: list[dict[str, Any]]

    @property
    def label(self) -> str:
        """model × setup × setting × adapter × comparison mode."""
        return f"{self.run.label} · {self.run.mode}"


@dataclass
class Tasks:
    """The tasks of every open run (in first-seen order) and the spec excerpts their records name."""

    ids: list[str] = field(default_factory=list)
    apis: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    position: dict[str, int] = field(default_factory=dict)
    excerpts: dict[str, str] = field(default_factory=dict)  # "api METHOD /template" -> operation JSON

    def add(self, sample: str, api: str, text: str) -> int:
        if sample not in self.position:
            self.position[sample] = len(self.ids)
            self.ids.append(sample)
            self.apis.append(api)
            self.texts.append(text)
        elif text and not self.texts[self.position[sample]]:
            self.texts[self.position[sample]] = text
        return self.position[sample]


def read_run(directory: Path) -> tuple[RunRecord, Summary, list[dict[str, Any]]]:
    """``run.json``, ``summary.json`` and the joined sample records of one run directory."""
    run = load_run(directory)
    summary = load_summary(directory)
    generations = latest(read_generations(directory))
    records = []
    for result in latest(read_results(directory)).values():
        record = result.model_dump()
        generation = generations.get(result.key)
        if generation is not None:
            extra = generation.model_dump(exclude={"sample", "draw"})
            extra["generation_error"] = extra.pop("error", None)
            extra["generation_timings"] = extra.pop("timings", None)  # the result's own are execution times
            record.update(extra)
        records.append(record)
    return run, summary, records


def _dataset(run: RunRecord) -> Dataset | None:
    """The dataset a run was made from, if it can still be loaded (else None: the page does without)."""
    from wapii_core.run.runner import load_dataset

    try:
        return load_dataset(run.dataset, Path(run.dataset_source).parent if run.dataset_source else None,
                            Path(run.dataset_dir) if run.dataset_dir else None)
    except (WapiiError, OSError, KeyError, ValueError):
        return None


class _Endpoints:
    """``METHOD /template`` of a request in its API's spec, and the spec excerpt of each endpoint."""

    def __init__(self, dataset: Dataset | None, tasks: Tasks) -> None:
        self.dataset = dataset
        self.tasks = tasks
        self._indexes: dict[str, Any] = {}
        self._documents: dict[str, Any] = {}
        self._memo: dict[tuple[str, str, str], str | None] = {}
        self._looked_up: set[str] = set()  # endpoints already looked up (those found are in tasks.excerpts)

    def _index(self, api: str) -> Any:
        if api not in self._indexes:
            from wapii_core.openapi.index import SpecIndex

            path = self.dataset.specs.get(api) if self.dataset else None
            try:
                self._indexes[api] = SpecIndex.load(path) if path else None
            except (WapiiError, OSError, ValueError):
                self._indexes[api] = None
        return self._indexes[api]

    def endpoint(self, api: str, request: Any) -> str | None:
        """The endpoint a request addresses, or None (no request, no spec, no operation)."""
        if not isinstance(request, dict) or not isinstance(request.get("url"), str):
            return None
        method = str(request.get("method", "")).lower()
        key = (api, request["url"], method)
        if key not in self._memo:
            index = self._index(api)
            found = None
            if index is not None:
                for template in index.candidates(request["url"]):
                    if index.has_method(template, method):
                        found = f"{method.upper()} {template}"
                        break
            self._memo[key] = found
        return self._memo[key]

    def excerpt(self, api: str, endpoint: str | None) -> None:
        """Keep the spec excerpt of ``endpoint`` (``METHOD /template``) for the page, if the spec has it."""
        key = f"{api} {endpoint}"
        if not endpoint or key in self.tasks.excerpts or key in self._looked_up:
            return
        self._looked_up.add(key)
        method, template = endpoint.split(" ", 1)
        document = self._document(api)
        operation = ((document or {}).get("paths") or {}).get(template, {}).get(method.lower())
        if operation is None:
            return
        # Bounded as it is written: a YAML alias graph (billion laughs, an alias inside itself) is never expanded.
        text, note = bounded_dumps({template: {method.lower(): operation}}, EXCERPT_CHARS)
        self.tasks.excerpts[key] = text if note is None else f"{text}\n… ({note})"

    def _document(self, api: str) -> dict[str, Any] | None:
        if api not in self._documents:
            from wapii_core.openapi.parsing import document_of, read_bytes

            index = self._index(api)
            try:
                self._documents[api] = document_of(index.path, read_bytes(index.path)).data if index else None
            except (WapiiError, OSError, ValueError):
                self._documents[api] = None
        return self._documents[api]


def open_runs(directories: Iterable[Path], advance: Callable[[int], None] = lambda n=1: None
              ) -> tuple[list[ViewRun], Tasks]:
    """Read every run directory; records in task order (then draw), enriched for the page (``advance``
    is called after each run)."""
    tasks = Tasks()
    runs: list[ViewRun] = []
    datasets: dict[tuple[Any, Any], tuple[dict[str, Any], _Endpoints]] = {}  # the runs of one dataset share them
    for directory in directories:
        run, summary, records = read_run(Path(directory))
        key = (run.dataset, run.dataset_sha256)
        if key not in datasets:
            dataset = _dataset(run)
            datasets[key] = ({s.id: s for s in dataset.samples} if dataset else {}, _Endpoints(dataset, tasks))
        by_id, endpoints = datasets[key]
        for record in records:
            task = by_id.get(record["sample"])
            record["task"] = task.task if task else ""
            if record.get("expected_request") is None and task is not None:
                record["expected_request"] = task.config
                record["expected_from"] = "dataset"
            record["expected_endpoint"] = endpoints.endpoint(record["api"], record.get("expected_request"))
            if record.get("resolved_endpoint") is None:
                record["resolved_endpoint"] = endpoints.endpoint(record["api"], record.get("request"))
            endpoints.excerpt(record["api"], record["expected_endpoint"])
            endpoints.excerpt(record["api"], record["resolved_endpoint"])
            record["task_index"] = tasks.add(record["sample"], record["api"], record["task"])
        records.sort(key=lambda r: (r["task_index"], r.get("draw", 0)))
        runs.append(ViewRun(Path(directory), Path(directory).name, run, summary, records))
        advance(1)
    _unique_names(runs)
    return runs, tasks


def _unique_names(runs: list[ViewRun]) -> None:
    """Column names: the directory's name, its parent's prefixed where two runs share one."""
    names = [r.directory.name for r in runs]
    for run in runs:
        if names.count(run.directory.name) > 1:
            run.name = f"{run.directory.resolve().parent.name}/{run.directory.name}"
