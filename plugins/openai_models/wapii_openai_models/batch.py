"""Batches for the ``openai`` backend: OpenAI's Batch API (``-O batch=true``) and vLLM's batch-file
runner (``-O batch=files``).

Both use the same JSONL request file, one line per request: ``{"custom_id": <cache key>, "method":
"POST", "url": "/v1/completions" | "/v1/chat/completions", "body": <the request as the backend would
send it>}``; answers come back as ``{"custom_id", "response": {"status_code", "body"}, "error"}`` lines.
The requests are split into parts of at most ``batch_max_requests`` lines and ``batch_max_bytes``
bytes. Every part is recorded in ``<run-dir>/batches.json`` as soon as it exists (the batch id and
file id, or the input and output paths), so a killed run or a rebooted machine resumes the same
batches instead of paying again: a part is adopted by a later run whose pending requests it holds.
Batches are also tagged with a digest of their requests (``metadata.wapii_requests``) and a part
is adopted from the provider's list when the record was lost between creating it and writing it.

``batch=true``: upload the file (``POST /v1/files``), create the batch (``POST /v1/batches``),
poll it (``GET /v1/batches/{id}``) and, once it has ended, download its output and error files.
``batch=files``: write ``<run-dir>/batch/input-NNNN.jsonl`` for ``vllm run-batch`` and read
``output-NNNN.jsonl`` once it is there. Without ``batch_wait`` a part that has not ended makes the run
stop with its status (:class:`~wapii_core.base.errors.GenerationPending`, exit 0); with it, the run
polls (``batch_poll`` seconds, growing 1.5x per poll up to ``batch_max_poll``) until every part has
ended. A request that a batch answered with an error, that expired, or that a cancelled or failed
batch never ran, is a failed generation with the batch's reason; it is sent again (in a new batch)
when the run is resumed.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Literal

from pydantic import BaseModel, Field, ValidationError
from urllib3.exceptions import HTTPError

from wapii_core.api import GenerationPending, InputError, WapiiError
from wapii_core.kits.files import write_atomic

from .client import Answer, parse_answer
from .options import OpenAIOptions
from .retry import RetryPolicy, Transient, raise_if_retryable
from .transport import classify, detail, one_line, pool, redact

if TYPE_CHECKING:
    from .calls import Call

STATE_FILE = "batches.json"
FILES_DIR = "batch"
ENDED = ("completed", "failed", "expired", "cancelled")
PATHS = {"completions": "/v1/completions", "chat": "/v1/chat/completions"}

def batch_answers(run: "BatchRun", misses: "list[Call]") -> Iterator[tuple["Call", Answer | str]]:
    """Each of ``misses`` (requests not in the cache) with its answer through ``run``'s batches, or the
    reason it failed, as its batch ends; requests with the same cache key share a line."""
    by_key: dict[str, list[Call]] = {}
    for call in misses:
        by_key.setdefault(call.key, []).append(call)
    for key, outcome in run.answers({key: calls[0].body for key, calls in by_key.items()}):
        for call in by_key[key]:
            yield call, outcome


class BatchRecord(BaseModel):
    """One part of a run's requests, sent as one batch."""

    kind: Literal["api", "files"]
    id: str  # the provider's batch id; for files, the part's name (input-0000)
    endpoint: str  # "/v1/completions" or "/v1/chat/completions"
    custom_ids: list[str]
    base_url: str | None = None  # api: where the batch lives
    input_file_id: str | None = None  # api
    input_path: str | None = None  # files: relative to the run directory
    output_path: str | None = None  # files
    status: str = "created"
    collected: bool = False  # its answers were handed to the run


class BatchState(BaseModel):
    """``<run-dir>/batches.json``."""

    batches: list[BatchRecord] = Field(default_factory=list)


class BatchRun:
    """The batches of one ``generate`` call (see the module docstring).

    ``run_dir`` None (the backend used outside ``wapii run``) keeps the records in memory and
    always waits; ``files`` needs a run directory.
    """

    def __init__(self, options: OpenAIOptions, model: str, endpoint: str, run_dir: Path | None,
                 progress: Callable[[str, int], Callable[[int], None]] | None = None) -> None:
        if options.batch == "files" and run_dir is None:
            raise WapiiError("backend openai: -O batch=files needs a run directory (use it through `wapii run`)")
        self.options = options
        self.model = model
        self.kind: Literal["api", "files"] = "files" if options.batch == "files" else "api"
        self.endpoint = PATHS[endpoint]
        self.answer_kind = endpoint
        self.run_dir = run_dir
        self.wait = options.batch_wait or run_dir is None
        self.progress = progress
        self.submitted = 0  # requests sent in new batches by this run (what the provider bills)
        self.state = self._load()
        self._apis: dict[str, _Api] = {}
        self._listing: list[dict[str, Any]] | None = None

    # -- the run directory's records -----------------------------------------------------------

    @property
    def state_path(self) -> Path | None:
        return self.run_dir / STATE_FILE if self.run_dir is not None else None

    def _load(self) -> BatchState:
        path = self.state_path
        if path is None or not path.exists():
            return BatchState()
        try:
            return BatchState.model_validate_json(path.read_text(encoding="utf-8"))
        except (ValidationError, UnicodeDecodeError) as exc:
            raise InputError(path, f"not a batch record ({_first_problem(exc)}); it names batches that may "
                             "still be running: fix or remove it") from None

    def _save(self) -> None:
        path = self.state_path
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, self.state.model_dump_json(indent=1) + "\n")

    # -- the flow --------------------------------------------------------------------------------

    def answers(self, bodies: dict[str, dict[str, Any]]) -> Iterator[tuple[str, Answer | str]]:
        """``(custom_id, answer or failure)`` for each request of ``bodies`` (custom id -> request
        body) as its batch ends; raises :class:`GenerationPending` when batches are still running
        and the run does not wait."""
        wanted = set(bodies)
        active = [r for r in self.state.batches if not r.collected and r.kind == self.kind
                  and r.endpoint == self.endpoint and wanted.intersection(r.custom_ids)]
        covered = {cid for r in active for cid in r.custom_ids}
        for part in self._parts([cid for cid in bodies if cid not in covered], bodies):
            active.append(self._submit(part, bodies))
        yield from self._collect(active, wanted)

    def _parts(self, ids: list[str], bodies: dict[str, dict[str, Any]]) -> Iterator[list[str]]:
        part: list[str] = []
        size = 0
        for cid in ids:
            line = len(self._line(cid, bodies[cid]))
            if part and (len(part) >= self.options.batch_max_requests or size + line > self.options.batch_max_bytes):
                yield part
                part, size = [], 0
            part.append(cid)
            size += line
        if part:
            yield part

    def _line(self, cid: str, body: dict[str, Any]) -> bytes:
        return (json.dumps({"custom_id": cid, "method": "POST", "url": self.endpoint, "body": body},
                           ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")

    def _submit(self, part: list[str], bodies: dict[str, dict[str, Any]]) -> BatchRecord:
        content = b"".join(self._line(cid, bodies[cid]) for cid in part)
        if self.kind == "files":
            record = self._write_files(part, content)
        else:
            record = self._adopt(part) or self._create(part, content)
        self.state.batches.append(record)
        self._save()
        return record

    def _write_files(self, part: list[str], content: bytes) -> BatchRecord:
        assert self.run_dir is not None
        number = sum(1 for r in self.state.batches if r.kind == "files")
        name = f"{number:04d}"
        folder = self.run_dir / FILES_DIR
        folder.mkdir(parents=True, exist_ok=True)
        input_path = folder / f"input-{name}.jsonl"
        partial = input_path.with_suffix(".partial")
        partial.write_bytes(content)
        partial.replace(input_path)
        self.submitted += len(part)
        return BatchRecord(kind="files", id=f"input-{name}", endpoint=self.endpoint, custom_ids=part,
                           input_path=f"{FILES_DIR}/input-{name}.jsonl", output_path=f"{FILES_DIR}/output-{name}.jsonl",
                           status="written")

    def _create(self, part: list[str], content: bytes) -> BatchRecord:
        api = self._client()
        file_id = api.upload(f"wapii-{_digest(part)[:12]}.jsonl", content)
        batch = api.create(file_id, self.endpoint, {"wapii_requests": _digest(part)})
        self.submitted += len(part)
        return BatchRecord(kind="api", id=str(batch["id"]), endpoint=self.endpoint, custom_ids=part,
                           base_url=api.base_url, input_file_id=file_id, status=str(batch.get("status", "created")))

    def _adopt(self, part: list[str]) -> BatchRecord | None:
        """A batch of exactly these requests the provider already has (created by a run killed
        before it could record it), unless that batch ended without answering."""
        if self._listing is None:
            self._listing = self._client().recent()
        digest = _digest(part)
        known = {r.id for r in self.state.batches}  # collected ones too: their failures are what is resent
        for batch in self._listing:
            metadata = batch.get("metadata") or {}
            if (isinstance(metadata, dict) and metadata.get("wapii_requests") == digest and batch.get("id") not in known
                    and batch.get("endpoint") == self.endpoint
                    and batch.get("status") not in ("failed", "expired", "cancelled", "cancelling")):
                return BatchRecord(kind="api", id=str(batch["id"]), endpoint=self.endpoint, custom_ids=part,
                                   base_url=self._client().base_url, input_file_id=batch.get("input_file_id"),
                                   status=str(batch.get("status")))
        return None

    def _collect(self, active: list[BatchRecord], wanted: set[str]) -> Iterator[tuple[str, Answer | str]]:
        total = sum(len(wanted.intersection(r.custom_ids)) for r in active)
        advance = self.progress("batch", total) if self.progress and total else None
        shown = 0
        running: dict[str, int] = {}  # requests done so far in each batch still running
        delay = self.options.batch_poll
        while True:
            for record in [r for r in active if not r.collected]:
                view = self._poll(record)
                if record.status in ENDED or (record.kind == "files" and view is not None):
                    for cid, outcome in self._results(record, view):
                        if cid in wanted:
                            yield cid, outcome
                    record.collected = True
                    self._save()
                else:
                    counts = (view or {}).get("request_counts") or {}
                    running[record.id] = int(counts.get("completed") or 0) + int(counts.get("failed") or 0)
            done = sum(len(wanted.intersection(r.custom_ids)) if r.collected
                       else min(len(r.custom_ids), running.get(r.id, 0)) for r in active)
            if advance is not None and done > shown:
                advance(done - shown)
                shown = done
            pending = [r for r in active if not r.collected]
            if not pending:
                return
            if not self.wait:
                raise GenerationPending(self._status(pending))
            time.sleep(delay)
            delay = min(self.options.batch_max_poll, delay * 1.5)

    def _poll(self, record: BatchRecord) -> dict[str, Any] | None:
        """The batch as the provider shows it now (the record's status updated); for files, the
        output file's lines once it exists, else None."""
        if record.kind == "files":
            assert self.run_dir is not None and record.output_path is not None
            output = self.run_dir / record.output_path
            return {"output": output.read_bytes()} if output.exists() else None
        view = self._client(record.base_url).get(record.id)
        if view is None:  # the provider does not know it (another server, or deleted): it answers nothing
            view = {"status": "failed", "errors": {"data": [{"message": f"unknown to {record.base_url}"}]}}
        status = str(view.get("status"))
        if status != record.status:
            record.status = status
            self._save()
        return view

    def _results(self, record: BatchRecord, view: dict[str, Any] | None) -> Iterator[tuple[str, Answer | str]]:
        """Each request of an ended batch with its answer or failure."""
        seen: set[str] = set()
        where = f"batch {record.id}"
        if record.kind == "files":
            blobs = [(view or {}).get("output", b"")]
        elif record.status == "failed":
            errors = ((view or {}).get("errors") or {}).get("data") or [{}]
            first = errors[0] if isinstance(errors[0], dict) else {}
            reason = f"{where} failed: {one_line(str(first.get('message') or first.get('code') or 'no reason'))}"
            for cid in record.custom_ids:
                yield cid, reason
            return
        else:
            api = self._client(record.base_url)
            blobs = [api.content(view[k]) for k in ("output_file_id", "error_file_id") if (view or {}).get(k)]
        for blob in blobs:
            for cid, outcome in _parse_results(blob, self.answer_kind, where):
                if cid in seen or cid not in record.custom_ids:
                    continue
                seen.add(cid)
                yield cid, outcome
        missing = (f"{where}: no answer in {record.output_path}" if record.kind == "files"
                   else f"{where} ended {record.status} without an answer for this request")
        for cid in record.custom_ids:
            if cid not in seen:
                yield cid, missing

    def _status(self, running: list[BatchRecord]) -> str:
        """What ``wapii run`` prints for batches that have not ended."""
        count = sum(len(r.custom_ids) for r in running)
        if self.kind == "files":
            assert self.run_dir is not None
            steps = "; ".join(f"vllm run-batch -i {self.run_dir / r.input_path} -o {self.run_dir / r.output_path} "
                              f"--model {self.model}" for r in running if r.input_path and r.output_path)
            return (f"{count} requests written for vLLM's batch runner: run `{steps}`, then this command again "
                    "to read the answers")
        names = ", ".join(f"{r.id} {r.status}" for r in running[:5]) + (", ..." if len(running) > 5 else "")
        return (f"{len(running)} batch{'es' if len(running) > 1 else ''} of {count} requests still running "
                f"({names}; ids kept in {self.state_path}): run the same command again to collect the answers, "
                "or add -O batch_wait=true to wait for them")

    def _client(self, base_url: str | None = None) -> "_Api":
        """The control-call client of ``base_url`` (default: the first ``-O base_url``)."""
        url = base_url or self.options.base_url[0]
        if url not in self._apis:
            o = self.options
            self._apis[url] = _Api(url, os.environ.get(o.api_key_env) or None, timeout=o.timeout,
                                   policy=RetryPolicy.of(o))
        return self._apis[url]

    def close(self) -> None:
        for api in self._apis.values():
            api.close()
        self._apis.clear()


def _parse_results(blob: bytes, kind: str, where: str) -> Iterator[tuple[str, Answer | str]]:
    """``(custom_id, answer or failure)`` of each line of an output or error file (OpenAI's or vLLM's)."""
    for raw in blob.decode("utf-8", "replace").splitlines():
        try:
            line = json.loads(raw)
        except json.JSONDecodeError:
            continue  # a cut-off line: its request counts as unanswered
        if not isinstance(line, dict) or not isinstance(line.get("custom_id"), str):
            continue
        response = line.get("response") if isinstance(line.get("response"), dict) else None
        error = line.get("error") if isinstance(line.get("error"), dict) else None
        status = response.get("status_code", 200) if response else None
        body = response.get("body", response) if response else None
        if response is not None and status == 200 and error is None:
            try:
                yield line["custom_id"], parse_answer(kind, body)
            except Exception as exc:  # the provider's answer is malformed: that request failed
                yield line["custom_id"], f"{where}: {one_line(str(exc))}"
            continue
        problem = error or (body.get("error") if isinstance(body, dict) else None) or {}
        code = problem.get("code") or (f"HTTP {status}" if status else "error")
        yield line["custom_id"], f"{where}: {code}: {one_line(str(problem.get('message') or 'no message'))}"


class _Api:
    """The Batch API's control calls on one server, retried on 429 / 5xx / timeouts like requests are."""

    def __init__(self, base_url: str, api_key: str | None, *, timeout: float, policy: RetryPolicy) -> None:
        self.base_url = base_url
        self.api_key = api_key
        self.policy = policy
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._pool = pool(base_url, connections=2, timeout=timeout, headers=headers, write_timeout=600.0)

    def upload(self, name: str, content: bytes) -> str:
        reply = self._call("POST", "/files", fields={"purpose": "batch", "file": (name, content, "application/jsonl")})
        return str(reply.json()["id"])

    def create(self, file_id: str, endpoint: str, metadata: dict[str, str]) -> dict[str, Any]:
        return self._call("POST", "/batches", json={"input_file_id": file_id, "endpoint": endpoint,
                                                     "completion_window": "24h", "metadata": metadata}).json()

    def get(self, batch_id: str) -> dict[str, Any] | None:
        """The batch, or None when the server answers 404 (it has no such batch)."""
        reply = self._call("GET", f"/batches/{batch_id}", missing_ok=True)
        return None if reply is None else reply.json()

    def recent(self) -> list[dict[str, Any]]:
        """The provider's latest batches (none when it cannot list them)."""
        try:
            data = self._call("GET", "/batches", fields={"limit": "100"}).json().get("data")
        except (WapiiError, ValueError, AttributeError):
            return []
        return [b for b in data if isinstance(b, dict)] if isinstance(data, list) else []

    def content(self, file_id: str) -> bytes:
        return bytes(self._call("GET", f"/files/{file_id}/content").data)

    def _call(self, method: str, path: str, *, missing_ok: bool = False, **kwargs: Any) -> Any:
        """The response (a 2xx); None for a 404 when ``missing_ok``; else a one-line :class:`WapiiError`
        (after the policy's retries when the failure was transient)."""
        url = self.base_url + path

        def attempt() -> Any:
            try:
                response = self._pool.request(method, url, **kwargs)
            except HTTPError as exc:
                kind, reason = classify(exc)
                if kind == "unreachable":
                    raise WapiiError(redact(f"backend openai: cannot reach {url} ({detail(exc)}); the batches are "
                                            "kept in the run directory: run the same command again once it is "
                                            "reachable", self.api_key)) from None
                raise Transient(reason) from None
            if response.status < 300:
                return response
            if response.status == 404 and missing_ok:
                return None
            message = f"HTTP {response.status}: {one_line(response.data.decode('utf-8', 'replace'))}"
            raise_if_retryable(response.status, response.headers, message)
            raise WapiiError(redact(f"backend openai: {method} {url} failed: {message}", self.api_key))

        try:
            return self.policy.call(attempt)
        except Transient as exc:
            raise WapiiError(redact(f"backend openai: {method} {url} failed: {exc}", self.api_key)) from None

    def close(self) -> None:
        self._pool.clear()


def _digest(ids: list[str]) -> str:
    return hashlib.sha256("\n".join(sorted(ids)).encode("utf-8")).hexdigest()[:32]


def _first_problem(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error.get("loc", ())) or "file"
        return f"{where}: {error.get('msg')}"
    return one_line(str(exc))
