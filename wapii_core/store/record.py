"""The run record: one pydantic model per file of a run directory, and the only way to read them.

A run directory holds (see :mod:`wapii_core.store.rundir` for how it is written and resumed):

====================  ==========================================================================
``run.json``          :class:`RunRecord`: what the run is (dataset and its sha256, adapter, backend,
                      model, setup, setting, comparison mode, draws, versions, ``record_version``)
``generations.jsonl`` one :class:`GenerationLine` per sample and draw (``sample``, ``draw``,
                      ``code``, ``finish_reason``, ``error``, ``raw``, ``prompt``, ``timings``)
``results.jsonl``     one :class:`ResultLine` per judged generation (verdicts, the captured
                      ``request``, ``expected_request``, ``reasons``, ``resolved_endpoint``,
                      ``call``, ``call_span``, ``timings``)
``summary.json``      :class:`Summary`: the aggregate (``complete``, ``samples``, ``judged``,
                      ``failed_generations``, ``overall``, ``per_api``, ``metrics``, ...)
====================  ==========================================================================

Field names of the per-sample story (stable; a viewer reads them):

- generation line: ``prompt`` (the prompt exactly as the backend received it: a string, or a list
  of ``{"role", "content"}`` chat messages; null in records written before it was stored) and
  ``timings`` (``{"latency_s", "queue_s", "tokens_in", "tokens_out"}``, each null where the backend does not
  know it);
- result line: ``expected_request`` (the dataset's expected request, in the same neutral shape as
  ``request``: ``url``, ``method``, ``headers``, optionally ``params`` and ``data``),
  ``reasons`` (``{"field path": "one-line reason"}`` for each verdict that is not ``correct``:
  ``"url"``, ``"method"``, ``"params.limit"``, ``"headers.X-Api-Key"``, ``"data"`` for the body as
  a whole, e.g. ``"params.limit": "sent '50', expected 50"``), ``resolved_endpoint``
  (``"GET /v2/books"``: the method and the spec path the captured URL resolved to, or null),
  ``call_span`` (``[start, end]``: character offsets of ``call`` in the generation's ``code``, or
  null) and ``timings`` (``{"execution_s"}``, null where not measured).

Versions: :data:`RECORD_VERSION` is written into ``run.json`` and ``summary.json``. A directory
written before the record was versioned (no ``record_version``) is read as version 1: its lines
simply lack the per-sample story (``prompt``, ``expected_request``, ...: null or empty). A
directory of a newer version than this wapii knows is refused in one line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from wapii_core.base.errors import InputError, WapiiError
from wapii_core.base.model import (MAX_DRAWS, ChatMessage, Generation, GenerationTimings, ResultTimings, SampleResult,
                                   Shard)

RECORD_VERSION = 3
"""The version of the run record this wapii writes. 1: before versioning (no per-sample story); 2:
``record_version``, prompts, expected requests, reasons, resolved endpoints, call spans, timings; 3:
``exchanges``, every request a program sent and its responder's answer (null where nothing answered)."""

RUN_FILE = "run.json"
GENERATIONS_FILE = "generations.jsonl"
RESULTS_FILE = "results.jsonl"
SUMMARY_FILE = "summary.json"
REPORT_FILE = "report.md"

GenerationLine = Generation
"""One line of ``generations.jsonl`` (the model backends yield; :class:`~wapii_core.base.model.Generation`)."""

ResultLine = SampleResult
"""One line of ``results.jsonl`` (the model the judge gives; :class:`~wapii_core.base.model.SampleResult`)."""

__all__ = ["RECORD_VERSION", "RunRecord", "Summary", "LiveState", "FailedGeneration", "GenerationLine", "ResultLine",
           "ProviderFailure", "ChatMessage", "GenerationTimings", "ResultTimings", "load_run", "load_summary", "read_results",
           "read_generations", "check_version", "latest", "sample_lines", "is_live"]


class RunRecord(BaseModel):
    """``run.json``: what the run is. Keys another wapii wrote and this one does not know are kept."""

    model_config = ConfigDict(extra="allow")

    record_version: int = 1
    dataset: str
    dataset_sha256: str | None = None
    dataset_source: str | None = None
    data_dir: str | None = None  # --data-dir, absolute (None: the dataset's own location)
    dataset_dir: str | None = None
    adapter: str
    backend: str
    backend_params: dict[str, Any] = Field(default_factory=dict)
    model: str | None = None
    setup: Literal["full", "argument", "import", "workflow"] = "full"
    setting: str = "unconstrained"
    mode: str = "reference"
    draws: int = Field(default=1, ge=1, le=MAX_DRAWS)  # the bounds of --draws
    answers: str = "empty"  # --answers: what answered the programs (empty: 200, no body; mock: the spec's mock)
    limit: int | None = None
    apis: list[str] | None = None
    sample: int | None = None  # --sample N: tasks drawn stratified by API
    sample_seed: int | None = None  # --seed of that draw
    metrics: list[str] = Field(default_factory=list)  # --metric providers applied besides the default ones
    default_metrics: bool = True  # False: made with --no-default-metrics
    versions: dict[str, str] = Field(default_factory=dict)
    git_commit: str | None = None
    created: str | None = None
    shard: Shard | None = None  # {"index", "count"}: this directory holds one shard (the bounds of --shard)
    task_set: dict[str, Any] | None = None  # the samples a backend's generations hold, when only some
    merged_from: list[dict[str, Any]] | None = None  # a merged run's shards (wapii_core.run.merge)

    @property
    def label(self) -> str:
        """model × setup × setting × adapter (the model falls back to the backend)."""
        parts = [self.model or self.backend, self.setup, self.setting, self.adapter]
        return " · ".join(str(p) for p in parts if p)

    def data(self) -> dict[str, Any]:
        """The record as ``run.json`` holds it (JSON values; ``shard`` and ``merged_from`` only when set)."""
        out = self.model_dump(mode="json")
        for key in ("shard", "merged_from"):
            if out.get(key) is None:
                out.pop(key, None)
        return out


class FailedGeneration(BaseModel):
    """A sample and draw whose generation failed (it has no result)."""

    sample: str
    draw: int = 0
    error: str | None = None


class ProviderFailure(BaseModel):
    """How a metric provider failed, as its entry in ``summary.json``'s ``metrics`` records it: as a
    whole (``error``, no values) and/or on some samples (``sample_errors``: ``{"<sample>#<draw>": error}``)."""

    model_config = ConfigDict(extra="ignore")

    error: str | None = None
    sample_errors: dict[str, str] = Field(default_factory=dict)


class LiveState(BaseModel):
    """What a run directory holds while it is written or after it was cut off (never stored: the
    readers compute it when there is no up-to-date ``summary.json``).

    ``state``: ``running`` (a ``wapii run``/``evaluate`` holds the directory's lock, pid ``writer``)
    or ``interrupted`` (nobody does and there is no ``summary.json``); ``planned``: the samples
    (tasks × draws) the run covers, None when its dataset cannot be read any more."""

    state: Literal["running", "interrupted"]
    writer: int | None = None
    planned: int | None = None
    generated: int = 0
    failed: int = 0
    judged: int = 0

    @property
    def pending(self) -> int:
        """Generated, not judged yet (a failed generation is never judged)."""
        return max(0, self.generated - self.failed - self.judged)

    @property
    def not_generated(self) -> int | None:
        return None if self.planned is None else max(0, self.planned - self.generated)

    def line(self) -> str:
        """``running (pid 5189): 8 of 26 samples generated, 5 judged, 3 pending, 18 not generated yet``."""
        who = f" (pid {self.writer})" if self.writer else ""
        of = f" of {self.planned}" if self.planned is not None else ""
        failed = f", {self.failed} failed" if self.failed else ""
        rest = f", {self.not_generated} not generated yet" if self.not_generated else ""
        return (f"{self.state}{who}: {self.generated}{of} samples generated{failed}, {self.judged} judged, "
                f"{self.pending} pending{rest}")


class Summary(BaseModel):
    """``summary.json``: the run's aggregate. ``overall`` and ``per_api`` hold the paper's rows (the
    ``wapii`` metric provider's value); ``metrics`` the other providers' values (or a provider's
    failure); ``metric_kinds`` what each provider declared of its values."""

    model_config = ConfigDict(extra="allow")

    record_version: int = 1
    complete: bool = True
    samples: int = 0
    tasks: int | None = None  # the tasks the run covers (None: written before tasks were counted)
    tasks_of: int | None = None  # the tasks of its dataset
    judged: int = 0
    not_executed: int = 0  # results whose program never ran (no worker could start): judged again on resume
    failed_generations: list[FailedGeneration] = Field(default_factory=list)
    mode: str | None = None
    setup: str | None = None
    overall: dict[str, Any] = Field(default_factory=dict)
    per_api: dict[str, dict[str, Any]] = Field(default_factory=dict)
    metrics: dict[str, Any] = Field(default_factory=dict)
    metric_kinds: dict[str, Any] = Field(default_factory=dict)
    live: LiveState | None = None  # set by the readers of a run still written or cut off; never stored

    @property
    def has_paper_rows(self) -> bool:
        """Whether the paper's provider gave rows (a run with ``--no-default-metrics`` has none)."""
        return bool(self.overall)

    def values(self, api: str | None = None) -> dict[str, Any]:
        """The paper's rows of the whole run (``api`` None) or of one API (empty when it has none)."""
        return self.overall if api is None else self.per_api.get(api, {})

    def kinds_of(self, provider: str) -> Any:
        """What ``provider`` declared of its values, as the run recorded it (None: not recorded)."""
        return self.metric_kinds[provider] if provider in self.metric_kinds else None

    def provider_failures(self) -> dict[str, ProviderFailure]:
        """``{provider: failure}`` for each metric provider whose entry records a failure."""
        out = {}
        for name, value in self.metrics.items():
            if isinstance(value, dict) and (value.get("error") or value.get("sample_errors")):
                out[name] = ProviderFailure.model_validate(value)
        return out

    def for_api(self, api: str) -> "Summary":
        """This summary with ``overall`` replaced by one API's rows and ``per_api`` holding only it."""
        values = self.values(api)
        return self.model_copy(update={"overall": values, "per_api": {api: values}})

    def data(self) -> dict[str, Any]:
        """The summary as ``summary.json`` holds it: ``overall`` and ``per_api`` left out when the paper's
        provider gave none, ``metrics`` when no other provider ran."""
        out = self.model_dump(mode="json", exclude={"live"})
        for key in ("overall", "per_api", "metrics"):
            if not out[key]:
                del out[key]
        return out


def check_version(path: Path, version: int) -> None:
    """Refuse a record of a version this wapii does not know (one line naming the file)."""
    if version > RECORD_VERSION:
        raise InputError(path, f"record_version {version} is newer than this wapii reads ({RECORD_VERSION}); "
                               "upgrade wapii to read it")


def _read_object(path: Path) -> dict[str, Any]:
    from wapii_core.store.run_files import JSON_CAP, read_run_file

    try:
        data = json.loads(read_run_file(path, JSON_CAP).decode("utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(path, f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except UnicodeDecodeError as exc:
        raise InputError(path, f"not UTF-8 text ({exc.reason})") from None
    except RecursionError:
        raise InputError(path, "JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise InputError(path, "expected a JSON object")
    return data


def _validated(path: Path, model: type[BaseModel], data: dict[str, Any]) -> Any:
    version = data.get("record_version", 1)
    if isinstance(version, int) and not isinstance(version, bool):
        check_version(path, version)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "file"
        raise InputError(path, f"{where}: {first.get('msg', 'invalid')}") from None


def load_run(directory: Path) -> RunRecord:
    """``run.json`` of an existing run directory."""
    path = Path(directory) / RUN_FILE
    if not Path(directory).is_dir():
        raise WapiiError(f"{directory}: no such run directory")
    if not path.exists() and not path.is_symlink():
        raise WapiiError(f"{directory}: not a run directory (no {RUN_FILE})")
    return _validated(path, RunRecord, _read_object(path))


def load_summary(directory: Path) -> Summary:
    """``summary.json`` of a finished run directory."""
    path = Path(directory) / SUMMARY_FILE
    if not path.exists():
        raise WapiiError(f"{directory}: no {SUMMARY_FILE} (run `wapii evaluate {directory}` to score it)")
    return _validated(path, Summary, _read_object(path))


def read_generations(directory: Path, live: bool = False) -> list[GenerationLine]:
    """Every line of ``generations.jsonl`` (a later line for the same sample and draw, a retry, is kept
    after the earlier one; :func:`latest` keeps only the last). ``live``: the directory may be being
    written, so a last line without its newline is one still being written, left out (not an error)."""
    from wapii_core.store.run_files import read_jsonl

    return read_jsonl(Path(directory) / GENERATIONS_FILE, GenerationLine, unfinished_ok=live)


def read_results(directory: Path, live: bool = False) -> list[ResultLine]:
    """Every line of ``results.jsonl`` (``live``: as :func:`read_generations`)."""
    from wapii_core.store.run_files import read_jsonl

    return read_jsonl(Path(directory) / RESULTS_FILE, ResultLine, unfinished_ok=live)


def is_live(directory: Path) -> bool:
    """Whether a run directory may still grow: a ``wapii run``/``evaluate`` holds its lock, or it has no
    ``summary.json`` (cut off). Its readers read its lines leniently (``live=True``: a last line being
    written is left out) and never take the lock, which keeps writers apart, not readers."""
    from wapii_core.store.lock import writer_pid

    return writer_pid(directory) is not None or not (Path(directory) / SUMMARY_FILE).exists()


def latest(lines: Iterable[Any]) -> dict[str, Any]:
    """``{"<sample>#<draw>": line}``, a later line for the same key superseding an earlier one."""
    return {line.key: line for line in lines}


def sample_lines(directory: Path, sample: str, draw: int = 0) -> tuple[GenerationLine | None, ResultLine | None]:
    """The generation line and the result line of one sample and draw of a run directory (either may
    be None: not generated yet, or not judged yet). An unknown sample or draw is refused in one line
    (with the closest sample id, or the draws the sample has)."""
    from wapii_core.base.errors import did_you_mean

    directory = Path(directory)
    load_run(directory)  # a bad run directory is refused before its lines are read
    live = is_live(directory)
    generations = read_generations(directory, live=live)
    results = read_results(directory, live=live)
    draws = sorted({line.draw for line in [*generations, *results] if line.sample == sample})
    if not draws:
        known = list(dict.fromkeys(line.sample for line in [*generations, *results]))
        if not known:
            raise WapiiError(f"{directory}: holds no samples yet")
        raise WapiiError(f"{directory}: no sample {sample!r}{did_you_mean(sample, known)} "
                         f"(samples are named <api>/<index>, e.g. {known[0]!r})")
    if draw not in draws:
        raise WapiiError(f"{directory}: sample {sample!r} has no draw {draw} (its draws: "
                         f"{', '.join(map(str, draws))})")
    key = f"{sample}#{draw}"
    return latest(generations).get(key), latest(results).get(key)
