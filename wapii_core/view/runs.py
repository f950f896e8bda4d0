"""Run directories as the viewer reads them: each sample's judged result joined with its generation.

A sample's record is the result line and the generation line of the same sample and draw, merged
(the generation's ``error`` and ``timings`` kept as ``generation_error`` and ``generation_timings``), plus what the page needs beside the run
files: the argument buckets the sample counts in (``argument_buckets``), the task text, the expected request (the result line's, else the dataset's ``config``), the
endpoints of the expected and of the captured request (``METHOD /template``) and the spec excerpt
of each, and for a ``wire``-mode sample the two requests as the judge compared them (``diff_views``:
:func:`wapii_core.report.sample_story.diff_views`). Everything from the dataset and the specs is optional: a run whose dataset is no longer
at hand is still shown, without task texts and excerpts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from wapii_core.base.errors import WapiiError
from wapii_core.base.model import SampleResult
from wapii_core.base.jsonwalk import bounded_dumps
from wapii_core.base.protocols import Dataset
from wapii_core.store.record import RunRecord, Summary, latest, load_run, read_generations, read_results

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
    """``run.json``, ``summary.json`` and the joined sample records of one run directory. A run still
    being written, or cut off, is read without its lock (:mod:`wapii_core.run.live`): its summary is
    that of the lines written so far, and a sample generated but not judged yet is a record of
    verdict ``pending``."""
    from wapii_core.run.live import read_summary

    run = load_run(directory)
    summary = read_summary(directory)  # a run still written (or cut off): what it holds so far
    live = summary.live is not None
    generations = latest(read_generations(directory, live=live))
    records = []
    for result in latest(read_results(directory, live=live)).values():
        record = result.model_dump()
        generation = generations.get(result.key)
        if generation is not None:
            extra = generation.model_dump(exclude={"sample", "draw"})
            extra["generation_error"] = extra.pop("error", None)
            extra["generation_timings"] = extra.pop("timings", None)  # the result's own are execution times
            record.update(extra)
        record["argument_buckets"] = _buckets(result)
        records.append(record)
    if live:  # generated, not judged yet: listed as pending
        judged = {r["sample"] + "#" + str(r.get("draw", 0)) for r in records}
        for key, generation in generations.items():
            if key not in judged and generation.error is None:
                extra = generation.model_dump()
                extra["generation_error"] = extra.pop("error", None)
                extra["generation_timings"] = extra.pop("timings", None)
                records.append({**extra, "api": generation.sample.rsplit("/", 1)[0], "verdict": "pending"})
    return run, summary, records


def _buckets(result: SampleResult) -> list[str]:
    """The argument buckets the sample has arguments in, as the argument rows count them
    (:func:`wapii_core.judge.rows.argument_buckets`: special headers left out, a non-executable sample's
    expected arguments missing); none for a result whose argument verdicts no row knows (a forged line)."""
    from wapii_core.judge.compare import sample_counts
    from wapii_core.judge.rows import argument_buckets

    try:
        return list(argument_buckets(sample_counts(result)))
    except ValueError:
        return []


def dataset_of(run: RunRecord) -> Dataset | None:
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
    from wapii_core.report.sample_story import diff_views

    tasks = Tasks()
    runs: list[ViewRun] = []
    datasets: dict[tuple[Any, Any], tuple[dict[str, Any], _Endpoints]] = {}  # the runs of one dataset share them
    for directory in directories:
        run, summary, records = read_run(Path(directory))
        key = (run.dataset, run.dataset_sha256)
        if key not in datasets:
            dataset = dataset_of(run)
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
            if record.get("mode") == "wire" and record.get("request") is not None:
                record["diff_views"] = list(diff_views(record.get("expected_request"), record["request"], "wire"))
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


MAX_DEPTH = 3
"""How deep ``wapii view runs/`` looks for run directories below a folder it is given."""


def run_directories(paths: Iterable[Path]) -> list[Path]:
    """The run directories ``paths`` name: each path that holds a ``run.json`` itself, else every
    directory below it (up to :data:`MAX_DEPTH` levels, sorted by path) that does. A path that is
    neither is refused in one line."""
    from wapii_core.store.record import RUN_FILE

    out: list[Path] = []
    for path in map(Path, paths):
        if (path / RUN_FILE).is_file() or not path.is_dir():
            out.append(path)  # not a directory: load_run says so
            continue
        found = sorted(p.parent for depth in range(1, MAX_DEPTH + 1)
                       for p in path.glob("/".join(["*"] * depth) + "/" + RUN_FILE) if p.is_file())
        if not found:
            raise WapiiError(f"{path}: not a run directory, and no folder below it holds a {RUN_FILE}")
        out.extend(found)
    return list(dict.fromkeys(out))
