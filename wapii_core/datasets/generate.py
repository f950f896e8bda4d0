"""``wapii datasets generate``: the paper's dataset creation for any OpenAPI spec.

A model is shown the spec, WAPIIBench's dataset-generation prompt, its JSON template and, where the
prompts directory has one, ``<api>_instructions.md`` (WAPIIBench ships ``slack_instructions.md``),
and asked for one task + expected request per endpoint. A spec with more than ``max_endpoints``
operations is asked for in subsets of paths (about ``chunk_endpoints`` operations each), as the
paper did for its largest APIs; each request shows the whole spec, or with ``subset_spec`` only
its paths and the components they use (what makes a spec of 1,000 endpoints fit a context window). Every answer is parsed as JSON (a malformed one is asked again, up
to ``retries`` times, then reported); every sample is run through ``datasets check`` (its problems
go into the sample's ``checks`` field, as in WAPIIBench; ``drop_failing`` leaves such samples out);
repeated tasks and requests are dropped. The result is a dataset directory in the WAPIIBench layout
(``dataset.json``, ``specs/``, ``prompts/``, ``apis.json``) plus ``generation/`` with every prompt
and answer, written all at once (nothing half-written on failure).
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from pydantic import ValidationError

from wapii_core.datasets.staging import refuse_existing, staged_dataset, write_json
from wapii_core.base.errors import InputError, WapiiError
from wapii_core.openapi.refs import pointer

PROMPT_FILE = "dataset_generation_prompt.md"
TEMPLATE_FILE = "template.json"
SYSTEM_MESSAGE = "You are an assistant designed to create API test data."
"""The system message of the paper's dataset-generation requests."""
OPERATIONS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

Ask = Callable[[str, str, int], str]
"""``ask(system, user, attempt) -> answer text``: one chat request to the generating model (it may
raise :class:`~wapii_core.datasets.generate_chat.AskFailed`; a ``close()`` attribute is called at the end)."""


@dataclass
class GenerateConfig:
    spec: Path
    backend: str
    model: str
    out: Path
    prompts_dir: Path | None = None  # default: WAPIIBench's prompts directory
    data_dir: Path | None = None  # where WAPIIBench is, for its prompts
    api: str | None = None  # default: the spec file's stem
    max_endpoints: int = 100
    chunk_endpoints: int = 30
    retries: int = 2
    drop_failing: bool = False
    subset_spec: bool = False  # show each subset request only its paths and the components they use
    backend_options: dict[str, str] = field(default_factory=dict)


@dataclass
class GenerationReport:
    """What happened: requests, retries, failures, drops and the samples written."""

    requests: int = 0
    attempts: int = 0
    failed_requests: list[str] = field(default_factory=list)
    received: int = 0
    malformed: list[str] = field(default_factory=list)
    duplicates: int = 0
    flagged: int = 0
    dropped_failing: int = 0
    written: int = 0

    def lines(self) -> list[str]:
        out = [f"{self.requests} request(s) to the model, {self.attempts} answer(s) read, {self.received} "
               f"sample(s) received", f"{self.duplicates} duplicate(s) dropped, {len(self.malformed)} malformed "
               f"sample(s) dropped, {self.flagged} sample(s) with check problems"
               + (f" ({self.dropped_failing} dropped)" if self.dropped_failing else " (kept, see `checks`)"),
               f"{self.written} sample(s) written"]
        out += [f"failed: {reason}" for reason in self.failed_requests]
        out += [f"malformed: {reason}" for reason in self.malformed]
        return out


class MalformedAnswer(ValueError):
    """An answer that is not the JSON object the prompt asks for."""


def count_operations(document: dict[str, Any]) -> int:
    return sum(1 for item in document["paths"].values() if isinstance(item, dict) for key in item if key in OPERATIONS)


def endpoint_chunks(document: dict[str, Any], max_endpoints: int, chunk_endpoints: int) -> list[list[str] | None]:
    """``[None]`` (all endpoints in one request) or subsets of paths of about ``chunk_endpoints`` operations."""
    if count_operations(document) <= max_endpoints:
        return [None]
    chunks: list[list[str] | None] = []
    chunk: list[str] = []
    size = 0
    for path, item in document["paths"].items():
        chunk.append(path)
        size += sum(1 for key in (item if isinstance(item, dict) else {}) if key in OPERATIONS)
        if size >= chunk_endpoints:
            chunks.append(chunk)
            chunk, size = [], 0
    if chunk:
        chunks.append(chunk)
    return chunks


def spec_subset(document: dict[str, Any], paths: list[str]) -> dict[str, Any]:
    """``document`` with only ``paths`` and what they use: every component a local ``$ref`` reaches
    from them (transitively), the security schemes, and the top-level fields other than ``paths``,
    ``components``, ``webhooks`` and extensions (``x-...``: GitHub's ``x-webhooks`` alone is 5 MB)."""
    subset = {k: v for k, v in document.items()
              if k not in ("paths", "components", "webhooks") and not str(k).startswith("x-")}
    subset["paths"] = {p: document["paths"][p] for p in paths}
    components = document.get("components") if isinstance(document.get("components"), dict) else {}
    kept: dict[str, dict[str, Any]] = {}
    if isinstance(components.get("securitySchemes"), dict):
        kept["securitySchemes"] = dict(components["securitySchemes"])
    pending = [subset["paths"], kept.get("securitySchemes", {})]
    seen: set[tuple[str, str]] = set()
    while pending:
        for ref in _local_refs(pending.pop()):
            parts = pointer(ref)
            if len(parts) < 3 or parts[0] != "components" or (parts[1], parts[2]) in seen:
                continue
            seen.add((parts[1], parts[2]))
            group = components.get(parts[1])
            if isinstance(group, dict) and parts[2] in group:
                kept.setdefault(parts[1], {})[parts[2]] = group[parts[2]]
                pending.append(group[parts[2]])
    if kept:  # in the document's own order
        subset["components"] = {kind: {name: node for name, node in components[kind].items() if name in kept[kind]}
                                for kind in components if kind in kept}
    return subset


def _local_refs(node: Any) -> list[str]:
    """Every ``$ref`` string starting with ``#/`` in ``node``."""
    found, stack = [], [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/"):
                found.append(ref)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def subset_text(subset: dict[str, Any], as_json: bool) -> str:
    """A spec subset written as the spec file was (JSON or YAML)."""
    if as_json:
        return json.dumps(subset, indent=2, ensure_ascii=False, default=str)
    import yaml

    return yaml.dump(subset, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False, allow_unicode=True,
                     width=1000)


def build_prompt(prompts_dir: Path, spec_text: str, api: str, paths: list[str] | None) -> str:
    """The user message: the generation prompt with its four placeholders filled."""
    template = _read_text(prompts_dir / PROMPT_FILE)
    instructions_file = prompts_dir / f"{api}_instructions.md"
    values = {
        "spec": spec_text,
        "json_template": _read_text(prompts_dir / TEMPLATE_FILE),
        "api_specific_instructions": f"\n{_read_text(instructions_file)}\n" if instructions_file.is_file() else "",
        "path_selection": "Generate one sample for each existing combination of path and method." if paths is None
        else "Generate one sample for each method in the following paths:\n" + "\n".join(paths),
    }
    return re.sub(r"\{(spec|json_template|api_specific_instructions|path_selection)\}",
                  lambda m: values[m.group(1)], template)


def parse_answer(text: str) -> list[Any]:
    """The samples of an answer: ``{"samples": [...]}`` (or a bare list), code fences allowed."""
    body = text.strip()
    fenced = re.fullmatch(r"```(?:json)?\s*\n(.*?)\n?```", body, re.DOTALL)
    if fenced:
        body = fenced.group(1)
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise MalformedAnswer(f"not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    samples = data.get("samples") if isinstance(data, dict) else data
    if not isinstance(samples, list):
        raise MalformedAnswer("no \"samples\" list")
    return samples


def to_sample(raw: Any, api: str) -> dict[str, Any]:
    """One answer entry as a dataset entry (index and checks added later); ValueError if unusable."""
    from wapii_core.datasets.loader import ConfigRecord

    if not isinstance(raw, dict) or not isinstance(raw.get("task"), str) or not raw["task"].strip():
        raise ValueError("no task text")
    config = raw.get("config")
    if not isinstance(config, dict):
        raise ValueError("no config object")
    config = {k: v for k, v in config.items() if not (k in ("params", "data") and v in (None, {}))}
    if isinstance(config.get("method"), str):
        config["method"] = config["method"].lower()
    config.setdefault("headers", {})
    try:
        ConfigRecord.model_validate(config)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ValueError(f"config.{'.'.join(map(str, first['loc']))}: {first['msg']}") from None
    return {"api": api, "task": raw["task"].strip(), "config": config}


def generate_dataset(config: GenerateConfig, ask: Ask | None = None) -> GenerationReport:
    """Generate, check, deduplicate and write the dataset; ``ask`` defaults to the configured backend."""
    from wapii_core.openapi.spec_file import read_spec

    document = read_spec(config.spec)
    api = config.api or config.spec.stem
    prompts_dir = config.prompts_dir or _wapiibench_prompts(config.data_dir)
    out = Path(config.out)
    refuse_existing(out)
    if ask is None:
        ask = backend_ask(config, api)
    report = GenerationReport()
    try:
        with staged_dataset(out, api) as staging:
            log = staging / "generation"
            log.mkdir()
            spec_text = _read_text(config.spec)
            raw_samples = []
            for number, paths in enumerate(endpoint_chunks(document, config.max_endpoints, config.chunk_endpoints)):
                shown = spec_text if paths is None or not config.subset_spec else \
                    subset_text(spec_subset(document, paths), config.spec.suffix.lower() == ".json")
                user = build_prompt(prompts_dir, shown, api, paths)
                (log / f"request-{number}.in").write_text(f"{SYSTEM_MESSAGE}\n\n{user}", encoding="utf-8")
                raw_samples += _ask_until_parsed(ask, user, number, config.retries, log, report)
            samples = _finish_samples(raw_samples, api, config, report)
            if not samples:
                reasons = "; ".join((report.failed_requests + report.malformed)[:3]) or "every sample was dropped"
                raise WapiiError(f"the model produced no usable sample ({reasons}); nothing written")
            _write_layout(staging, samples, config.spec, api, document, prompts_dir)
            write_json(log / "generation.json", {"api": api, "backend": config.backend, "model": config.model,
                                                 "spec": str(config.spec), "report": report.__dict__})
    finally:
        if callable(getattr(ask, "close", None)):
            ask.close()  # type: ignore[attr-defined]
    return report


def _ask_until_parsed(ask: Ask, user: str, number: int, retries: int, log: Path,
                      report: GenerationReport) -> list[Any]:
    report.requests += 1
    reasons = []
    from wapii_core.datasets.generate_chat import AskFailed

    for attempt in range(retries + 1):
        try:
            answer = ask(SYSTEM_MESSAGE, user, attempt)
        except AskFailed as exc:
            reasons.append(f"no answer ({exc})")
            continue
        report.attempts += 1
        (log / f"request-{number}.out{'' if attempt == 0 else f'.{attempt}'}").write_text(answer, encoding="utf-8")
        try:
            return parse_answer(answer)
        except MalformedAnswer as exc:
            reasons.append(str(exc))
    report.failed_requests.append(f"request {number}: {retries + 1} attempt(s) failed: {'; '.join(reasons)}")
    return []


def _finish_samples(raw_samples: list[Any], api: str, config: GenerateConfig,
                    report: GenerationReport) -> list[dict[str, Any]]:
    """Validate, deduplicate, check and index the received samples."""
    from wapii_core.datasets.check import check_sample, request_key
    from wapii_core.base.model import Sample
    from wapii_core.openapi.request_validation import OperationValidator
    from wapii_core.openapi.index import SpecIndex

    report.received = len(raw_samples)
    spec, validator = SpecIndex.load(config.spec), OperationValidator.for_spec(config.spec)
    seen_tasks, seen_requests, samples = set(), set(), []
    for position, raw in enumerate(raw_samples):
        try:
            entry = to_sample(raw, api)
        except ValueError as exc:
            report.malformed.append(f"sample {position}: {exc}")
            continue
        sample = Sample(api=api, index=len(samples), task=entry["task"], config=entry["config"])
        task_key, key = " ".join(sample.task.split()).lower(), request_key(sample)
        if task_key in seen_tasks or key in seen_requests:
            report.duplicates += 1
            continue
        seen_tasks.add(task_key)
        seen_requests.add(key)
        problems = check_sample(sample, spec, validator)
        report.flagged += bool(problems)
        if problems and config.drop_failing:
            report.dropped_failing += 1
            continue
        samples.append({**entry, "index": len(samples), "checks": "".join(f"{p}\n" for p in problems) or "OK",
                        "vetted": False})
    report.written = len(samples)
    return [{"api": s["api"], "index": s["index"], "task": s["task"], "config": s["config"], "checks": s["checks"],
             "vetted": s["vetted"]} for s in samples]


def _write_layout(directory: Path, samples: list[dict[str, Any]], spec: Path, api: str, document: dict[str, Any],
                  prompts_dir: Path) -> None:
    write_json(directory / "dataset.json", samples)
    (directory / "specs").mkdir()
    shutil.copyfile(spec, directory / "specs" / f"{api}{spec.suffix}")
    (directory / "prompts").mkdir()
    for source in sorted(prompts_dir.iterdir()):  # contents only: a read-only source's modes stay behind
        if source.is_file():
            shutil.copyfile(source, directory / "prompts" / source.name)
    title = (document.get("info") or {}).get("title")
    write_json(directory / "apis.json", {api: title if isinstance(title, str) and title else api})


def _wapiibench_prompts(data_dir: Path | None) -> Path:
    from wapii_core.base import plugins

    why = (f"writing tasks for any API uses WAPIIBench's dataset-generation prompt ({PROMPT_FILE} and "
           f"{TEMPLATE_FILE})")
    try:
        dataset = plugins.datasets.get("wapiibench")(data_dir)
    except WapiiError as exc:
        raise WapiiError(f"{why}, and WAPIIBench is not here ({exc}); run `wapii datasets fetch wapiibench` once "
                         "(or pass --prompts DIR holding those two files)") from None
    if dataset.prompts_dir is None or not (dataset.prompts_dir / PROMPT_FILE).is_file():
        raise WapiiError(f"{why}, and WAPIIBench in {dataset.source.parent} has no prompts/{PROMPT_FILE}; pass "
                         "--prompts DIR holding those two files")
    return dataset.prompts_dir


def _read_text(path: Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(Path(path), f"cannot read: {exc.strerror or exc}") from None


def backend_ask(config: GenerateConfig, api: str) -> Ask:
    """``ask`` through a registered backend (see :mod:`wapii_core.datasets.generate_chat`)."""
    from wapii_core.datasets.generate_chat import backend_chat

    return backend_chat(config.backend, config.model, config.backend_options, config.spec, api,
                        attempts=config.retries + 1)
