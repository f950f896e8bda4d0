"""Loading and validating datasets in the WAPIIBench layout.

A dataset directory holds::

    dataset.json          a list of samples (or {"samples": [...]}):
                          {api, index, task, config: {url, method, headers, params?, data?}, checks?, vetted?}
                          a workflow task has calls: [config, ...] instead of config, and setup? and
                          faults? (docs/workflows.md)
                          a task inside real code adds starter_code, definitions?, template_url? and its
                          provenance (repo_name, path, ref, license, copyright); without an index a
                          sample is numbered by its position among its API's samples
    specs/<api>.yaml      the OpenAPI 3 spec of every api used (.yml and .json work too)
    prompts/              optional: the prompt templates (Dataset.prompts_dir)
    apis.json             optional: {api: display name}
    rules.json            optional: API-specific comparison rules (wapii_core.datasets.rules)

Every problem is reported as a one-line :class:`InputError` that names the file. Downloading the
WAPIIBench files is :mod:`wapii_core.datasets.fetch`'s job; loading never touches the network.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any, Literal, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from wapii_core.datasets.fetch import WAPIIBENCH_FILES, fetch_wapiibench, wapiibench_dir
from wapii_core.openapi.parsing import parse_json as _parse_json
from wapii_core.openapi.parsing import read_bytes as _read_bytes
from wapii_core.base.errors import InputError, WapiiError, json_type_name
from wapii_core.base.model import TASK_SLOT, CodeContext, Sample
from wapii_core.base.paths import bundled_specs_dir
from wapii_core.base.protocols import Dataset
from wapii_core.openapi.spec_file import read_spec


__all__ = ["BUILTIN_DISPLAY_NAMES", "check_dataset", "load_dataset_dir", "load_wapiibench", "fetch_wapiibench", "load_demo",
           "load_workflows", "dataset_summary"]

DATASET_FILE = "dataset.json"
APIS_FILE = "apis.json"
SPEC_SUFFIXES = (".yaml", ".yml", ".json")

BUILTIN_DISPLAY_NAMES = {
    "asana": "Asana",
    "google_calendar_v3": "Google Calendar",
    "google_sheet_v4": "Google Sheets",
    "slack": "Slack Web",
}
"""The names the WAPIIBench prompts use for its four APIs (used when a dataset has no apis.json)."""

MAX_CALLS = 20
"""Calls (and setup calls) a workflow task has at most."""


class ConfigRecord(BaseModel):
    """The expected request of a sample, as dataset.json writes it (unknown keys are refused)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    url: str = Field(min_length=1)
    method: Literal["get", "post", "put", "patch", "delete", "head", "options"]
    headers: dict[str, str]
    params: dict[str, Any] = Field(default_factory=dict)
    data: dict[str, Any] = Field(default_factory=dict)


class SampleRecord(BaseModel):
    """One entry of dataset.json (extra metadata keys are ignored)."""

    model_config = ConfigDict(extra="ignore", strict=True)

    api: str = Field(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")
    index: int | None = Field(default=None, ge=0)
    task: str = Field(min_length=1)
    config: ConfigRecord | None = None
    calls: list[ConfigRecord] | None = Field(default=None, min_length=1, max_length=MAX_CALLS)
    setup: list[ConfigRecord] | None = Field(default=None, max_length=MAX_CALLS)
    faults: dict[str, Any] | None = None
    checks: str = "OK"
    vetted: bool | None = None
    starter_code: str | None = Field(default=None, min_length=1)
    definitions: dict[str, Any] | None = None
    template_url: str | None = Field(default=None, min_length=1)
    repo_name: str | None = None
    path: str | None = None
    ref: str | None = None
    license: str | None = None
    copyright: str | None = None

    def context(self) -> CodeContext | None:
        """The code the task sits in (None: a task without code context)."""
        if self.starter_code is None:
            return None
        return CodeContext(starter_code=self.starter_code, definitions=self.definitions or {},
                           template_url=self.template_url, repo_name=self.repo_name, path=self.path, ref=self.ref,
                           license=self.license, copyright=self.copyright)


def load_dataset_dir(directory: Path, name: str, spec_dirs: Sequence[Path] = ()) -> Dataset:
    """Load and validate the dataset in ``directory`` (WAPIIBench layout, see the module docstring);
    an API whose spec is not in its ``specs/`` is looked up in each of ``spec_dirs``' ``specs/`` in turn."""
    directory = Path(directory)
    if not directory.is_dir():
        raise InputError(directory, "no such dataset directory")
    source = directory / DATASET_FILE
    raw = _read_bytes(source)
    samples = _parse_samples(source, raw)
    specs: dict[str, Path] = {}
    for position, sample in enumerate(samples):
        if sample.api not in specs:
            spec = next(filter(None, (_find_spec(d, sample.api) for d in (directory, *spec_dirs))), None)
            if spec is None:
                raise InputError(source, f"{_where(position, sample.api, sample.index)}: unknown api '{sample.api}' "
                                         f"(no specs/{sample.api}.yaml, .yml or .json)")
            specs[sample.api] = spec
    documents = {api: read_spec(path) for api, path in specs.items()}
    prompts = directory / "prompts"
    from wapii_core.datasets.rules import load_rules

    return Dataset(
        name=name,
        samples=samples,
        specs=specs,
        display_names=_display_names(directory / APIS_FILE, documents),
        source=source,
        sha256=hashlib.sha256(raw).hexdigest(),
        prompts_dir=prompts if prompts.is_dir() else None,
        rules=load_rules(directory, set(specs)),
    )


def check_dataset(dataset: Dataset) -> Dataset:
    """``dataset`` if a run can rely on it, whichever loader made it: every sample id once, a spec for
    every API; else an :class:`InputError` naming the dataset's file."""
    seen: dict[str, int] = {}
    for position, sample in enumerate(dataset.samples):
        where = f"sample {position} ({sample.id})"
        if sample.id in seen:
            raise InputError(dataset.source, f"{where}: duplicate of sample {seen[sample.id]} (same id)")
        seen[sample.id] = position
        if sample.api not in dataset.specs:
            raise InputError(dataset.source, f"{where}: the dataset has no spec for api '{sample.api}'")
    return dataset


def load_wapiibench(data_dir: Path | None = None) -> Dataset:
    """Load WAPIIBench from ``data_dir``, else ``$WAPII_DATA_DIR``, else the per-user cache.

    Only the presence of the files is checked here (``wapii datasets fetch wapiibench`` verifies
    their sha256 once, when it downloads them).
    """
    directory = wapiibench_dir(data_dir)
    missing = [f.local for f in WAPIIBENCH_FILES if f.needed and not (directory / f.local).is_file()]
    if missing:
        if not directory.is_dir():
            what = "not found"
        else:
            more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
            what = f"incomplete (missing {', '.join(missing[:3])}{more})"
        raise WapiiError(f"WAPIIBench data {what} in {directory}: {_data_dir_hint(data_dir, directory)}")
    return load_dataset_dir(directory, "wapiibench")


def _data_dir_hint(data_dir: Path | None, directory: Path) -> str:
    """What to do about WAPIIBench data missing from ``directory``: fetch it, or name where it is (a
    ``--data-dir`` or ``$WAPII_DATA_DIR`` that names a directory above the data is told which one below)."""
    import os

    named = "--data-dir" if data_dir is not None else "$WAPII_DATA_DIR" if os.environ.get("WAPII_DATA_DIR") else None
    if named is None:
        return ("run `wapii datasets fetch wapiibench` (offline: copy the data from a machine that has it and pass "
                "--data-dir DIR)")
    below = sorted(p.parent for p in directory.glob("*/dataset.json")) if directory.is_dir() else []
    if below:
        return f"{named} names the directory above it; pass --data-dir {below[0]}"
    return (f"{named} must name the directory that holds dataset.json and specs/ (`wapii datasets fetch "
            f"wapiibench --data-dir {directory}` downloads it there)")


def load_demo(data_dir: Path | None = None) -> Dataset:
    """The project's own demo dataset, bundled in ``specs/demo/``.

    ``data_dir`` is accepted for the uniform loader signature and ignored: the demo is never
    downloaded, and a ``--data-dir``/``$WAPII_DATA_DIR`` meant for WAPIIBench must not replace it.
    """
    del data_dir
    return load_dataset_dir(bundled_specs_dir() / "demo", "demo")


WORKFLOW_WAPIIBENCH_APIS = ("asana", "google_calendar_v3", "slack")
"""The APIs of the ``workflows`` dataset whose specs come from the WAPIIBench data (the demo's is bundled)."""


def workflows_dir() -> Path:
    """Where the ``workflows`` dataset's tasks are (``dataset.json``, ``apis.json``; inside the package)."""
    return Path(__file__).resolve().parent / "workflows"


def load_workflows(data_dir: Path | None = None) -> Dataset:
    """wapii's own workflow dataset (docs/datasets.md): tasks of several calls over the demo API,
    whose spec is bundled, and WAPIIBench's Asana, Google Calendar and Slack, whose specs are read
    from the WAPIIBench data (``data_dir``, else ``$WAPII_DATA_DIR``, else the per-user cache)."""
    directory = wapiibench_dir(data_dir)
    missing = [f"specs/{api}.yaml" for api in WORKFLOW_WAPIIBENCH_APIS if _find_spec(directory, api) is None]
    if missing:
        raise WapiiError(f"the workflows dataset needs WAPIIBench's specs, not found in {directory} (missing "
                         f"{', '.join(missing)}): {_data_dir_hint(data_dir, directory)}")
    return load_dataset_dir(workflows_dir(), "workflows", spec_dirs=(bundled_specs_dir() / "demo", directory))


def dataset_summary(ds: Dataset) -> dict[str, Any]:
    """What ``wapii datasets show`` prints: name, source, sha256 and the samples per API."""
    counts = Counter(s.api for s in ds.samples)
    return {
        "name": ds.name,
        "source": str(ds.source),
        "sha256": ds.sha256,
        "samples": len(ds.samples),
        "apis": {
            api: {"display_name": ds.display_names.get(api, api), "samples": counts[api], "spec": str(ds.specs[api])}
            for api in sorted(ds.specs)
        },
        "prompts_dir": str(ds.prompts_dir) if ds.prompts_dir else None,
    }


def _parse_samples(source: Path, raw: bytes) -> list[Sample]:
    """Validate every entry of dataset.json; refuse duplicates of (api, index)."""
    document = _parse_json(source, raw)
    entries = document.get("samples") if isinstance(document, dict) else document
    if not isinstance(entries, list):
        raise InputError(source, f"expected a list of samples or {{\"samples\": [...]}}, got {json_type_name(document)}")
    if not entries:
        raise InputError(source, "no samples")
    samples: list[Sample] = []
    seen: dict[tuple[str, int], int] = {}
    per_api: Counter[str] = Counter()
    for position, entry in enumerate(entries):
        where = _where(position, *((entry.get("api"), entry.get("index")) if isinstance(entry, dict) else ()))
        if not isinstance(entry, dict):
            raise InputError(source, f"{where}: expected an object, got {json_type_name(entry)}")
        try:
            record = SampleRecord.model_validate(entry)
        except ValidationError as exc:
            raise InputError(source, f"{where}: {_describe(exc)}") from None
        index = record.index if record.index is not None else per_api[record.api]
        per_api[record.api] += 1
        problem = _context_problem(record) or _workflow_problem(record)
        if problem:
            raise InputError(source, f"{_where(position, record.api, index)}: {problem}")
        key = (record.api, index)
        if key in seen:
            raise InputError(source, f"{where}: duplicate of sample {seen[key]} (same api and index)")
        seen[key] = position
        calls = entry.get("calls")
        samples.append(Sample(api=record.api, index=index, task=record.task,
                              config=entry["config"] if calls is None else calls[0],
                              checks=record.checks, vetted=record.vetted, context=record.context(),
                              calls=calls, setup_calls=entry.get("setup"), faults=record.faults))
    return samples


def _context_problem(record: SampleRecord) -> str | None:
    """What is wrong with a sample's code context (None: nothing, or it has none)."""
    if record.starter_code is None:
        extra = [k for k in ("definitions", "template_url") if getattr(record, k) is not None]
        return f"field '{extra[0]}' needs a starter_code" if extra else None
    if TASK_SLOT not in record.starter_code:
        return f"field 'starter_code': no '// {TASK_SLOT}' marks where the task goes"
    for name in record.definitions or {}:
        if not name.replace("$", "_").isidentifier():
            return f"field 'definitions': {name!r} is not a JavaScript identifier"
    return None


def _workflow_problem(record: SampleRecord) -> str | None:
    """What is wrong with a sample's ``config`` / ``calls`` / ``setup`` / ``faults`` (None: nothing)."""
    from wapii_core.base.references import find_references, malformed_references

    if (record.config is None) == (record.calls is None):
        return "needs either 'config' (one call) or 'calls' (a workflow), not both" if record.config \
            else "missing field 'config' (or 'calls', for a workflow)"
    if record.calls is None:
        extra = [k for k in ("setup", "faults") if getattr(record, k) is not None]
        return f"field '{extra[0]}' belongs to a workflow (a task with 'calls')" if extra else None
    if record.starter_code is not None:
        return "a workflow cannot sit in code context (starter_code)"
    if record.faults is not None:
        from pydantic import ValidationError as _Invalid

        from wapii_core.base.faults import FaultPlan

        try:
            FaultPlan.model_validate(record.faults)
        except _Invalid as exc:
            return f"field 'faults': {_describe(exc)}"
    setup = record.setup or []
    for group, calls in (("setup", setup), ("calls", record.calls)):
        for position, call in enumerate(calls):
            value = call.model_dump()
            bad = malformed_references(value)
            if bad:
                return f"{group}[{position}]: {bad[0]!r} is not a reference ({{{{N.path}}}} or {{{{sN.path}}}})"
            for ref in find_references(value):
                if ref.setup and ref.call >= (position if group == "setup" else len(setup)):
                    return f"{group}[{position}]: {ref} names setup call {ref.call}, which does not come before it"
                if not ref.setup and (group == "setup" or ref.call >= position):
                    return f"{group}[{position}]: {ref} names call {ref.call}, which does not come before it"
    return None


def _find_spec(directory: Path, api: str) -> Path | None:
    for suffix in SPEC_SUFFIXES:
        candidate = directory / "specs" / f"{api}{suffix}"
        if candidate.is_file():
            return candidate
    return None


def _display_names(apis_file: Path, documents: dict[str, dict[str, Any]]) -> dict[str, str]:
    """apis.json if present, else the built-in WAPIIBench names, else each spec's ``info.title``."""
    given: dict[str, str] = {}
    if apis_file.is_file():
        parsed = _parse_json(apis_file, _read_bytes(apis_file))
        if not (isinstance(parsed, dict) and all(isinstance(v, str) for v in parsed.values())):
            raise InputError(apis_file, "expected an object mapping each api to its display name (a string)")
        given = parsed
    names = {}
    for api, document in documents.items():
        info = document.get("info")
        title = info.get("title") if isinstance(info, dict) else None
        names[api] = given.get(api) or BUILTIN_DISPLAY_NAMES.get(api) or (title if isinstance(title, str) else api)
    return names


def _where(position: int, api: Any = None, index: Any = None) -> str:
    """``sample 12 (asana/3)``: the entry's position in the file, and its id when it has one."""
    known = isinstance(api, str) and isinstance(index, int) and not isinstance(index, bool)
    return f"sample {position} ({api}/{index})" if known else f"sample {position}"


def _describe(exc: ValidationError) -> str:
    """The first problem pydantic found, phrased for a dataset author, plus how many more there are."""
    first = exc.errors()[0]
    field = ".".join(str(part) for part in first["loc"])
    if first["type"] == "missing":
        text = f"missing field '{field}'"
    elif first["type"] == "extra_forbidden":
        text = f"unknown field '{field}'"
    else:
        text = f"field '{field}': {first['msg'][:1].lower()}{first['msg'][1:]} (got {_show(first['input'])})"
    more = exc.error_count() - 1
    return text + (f" (and {more} more problem{'s' if more > 1 else ''})" if more else "")


def _show(value: Any) -> str:
    text = json.dumps(value) if isinstance(value, (str, int, float, bool)) or value is None else json_type_name(value)
    return text if len(text) <= 40 else text[:37] + "..."
