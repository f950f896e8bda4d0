"""OpenAI's Batch API in the project's test server: ``/v1/files`` and ``/v1/batches``.

What OpenAI documents, kept small: ``POST /v1/files`` (multipart, ``purpose=batch``),
``GET /v1/files/{id}`` and ``/content``; ``POST /v1/batches`` (``input_file_id``, ``endpoint``,
``completion_window``, ``metadata``), ``GET /v1/batches/{id}``, ``GET /v1/batches?limit=N`` (newest
first), ``POST /v1/batches/{id}/cancel``. Input lines are validated as OpenAI does (a JSON object
with a unique ``custom_id``, ``method`` POST, the batch's ``url``, a ``body`` naming a served model);
a batch with a bad line fails with ``errors``.

A batch runs in simulated time, worked out whenever it is looked at: it is ``validating`` for
the first tenth of its ``duration``, then ``in_progress`` with ``request_counts`` growing, and
then ends. Each line is answered like a request to the completions or chat endpoint
(:func:`.server.answer`: the responder, stop strings, grammars) when the batch ends; the
output file holds the answers (``{"id", "custom_id", "response": {"status_code", "request_id",
"body"}, "error": null}``), the error file the lines that failed. How batches behave is set with
:meth:`BatchService.behave`: slow completion (``duration``), expiry (``expire``: only part of the
lines is answered, the rest fail with ``batch_expired``), per-line errors (``line_error``) and
failing validation (``fail``).
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from dataclasses import dataclass, field, replace
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

Answer = Callable[[str, dict[str, Any], "str | None"], "tuple[int, dict[str, Any]]"]
ENDPOINTS = {"/v1/completions": "completions", "/v1/chat/completions": "chat"}
TERMINAL = ("completed", "failed", "expired", "cancelled")


@dataclass(frozen=True)
class BatchBehaviour:
    """How the batches created from now on behave.

    ``duration``: seconds from creation to the end. ``expire``: the batch ends ``expired``, with only
    the first ``expire_done`` fraction of its lines answered. ``line_error(body)``: a message for a
    line that fails (HTTP 400 in the error file), or None. ``fail``: the batch fails validation with
    this message and answers nothing.
    """

    duration: float = 0.0
    expire: bool = False
    expire_done: float = 0.5
    line_error: Callable[[dict[str, Any]], str | None] | None = None
    fail: str | None = None


@dataclass
class _Batch:
    id: str
    endpoint: str
    input_file_id: str
    window: str
    metadata: dict[str, Any] | None
    lines: list[dict[str, Any]]
    behaviour: BatchBehaviour
    authorization: str | None
    created: float  # time.time()
    status: str = "validating"
    errors: list[dict[str, Any]] = field(default_factory=list)
    output_file_id: str | None = None
    error_file_id: str | None = None
    completed: int = 0
    failed: int = 0
    ended: float | None = None
    cancel_requested: float | None = None

    def view(self) -> dict[str, Any]:
        created = int(self.created)
        ended = int(self.ended) if self.ended is not None else None
        return {
            "id": self.id, "object": "batch", "endpoint": self.endpoint, "input_file_id": self.input_file_id,
            "completion_window": self.window, "status": self.status,
            "errors": {"object": "list", "data": self.errors} if self.errors else None,
            "output_file_id": self.output_file_id, "error_file_id": self.error_file_id,
            "created_at": created, "in_progress_at": created if self.status != "validating" else None,
            "expires_at": created + 86400, "completed_at": ended if self.status == "completed" else None,
            "failed_at": ended if self.status == "failed" else None,
            "expired_at": ended if self.status == "expired" else None,
            "cancelled_at": ended if self.status == "cancelled" else None,
            "request_counts": {"total": len(self.lines), "completed": self.completed, "failed": self.failed},
            "metadata": self.metadata,
        }


class BatchService:
    """The Batch API state of one test server (thread-safe)."""

    def __init__(self, answer: Answer, models: list[str] | None) -> None:
        self._answer = answer
        self._models = models
        self._lock = threading.RLock()
        self._ids = itertools.count(1)
        self._files: dict[str, tuple[str, bytes]] = {}  # id -> (filename, content)
        self._batches: dict[str, _Batch] = {}
        self.behaviour = BatchBehaviour()
        self.created = 0  # batches created (POST /v1/batches), failed validations included
        self.uploads = 0  # files uploaded
        self.polls = 0  # GET /v1/batches/{id}

    def behave(self, **changes: Any) -> None:
        """Set how batches created from now on behave (fields of :class:`BatchBehaviour`)."""
        with self._lock:
            self.behaviour = replace(self.behaviour, **changes)

    def all(self) -> list[dict[str, Any]]:
        """Every batch as the API shows it, oldest first."""
        with self._lock:
            return [self._advanced(b).view() for b in self._batches.values()]

    # -- HTTP ------------------------------------------------------------------------------------

    def post(self, path: str, raw: bytes, content_type: str, authorization: str | None) -> tuple[int, Any]:
        if path == "/files":
            return self._upload(raw, content_type)
        if path == "/batches":
            try:
                request = json.loads(raw)
            except json.JSONDecodeError:
                return 400, _error("request body is not JSON")
            return self._create(request, authorization)
        parts = path.strip("/").split("/")
        if len(parts) == 3 and parts[0] == "batches" and parts[2] == "cancel":
            return self._cancel(parts[1])
        return 404, _error(f"no route {path}")

    def get(self, target: str) -> tuple[int, Any]:
        url = urlsplit(target)
        parts = url.path.strip("/").split("/")
        with self._lock:
            if parts == ["batches"]:
                limit = int(parse_qs(url.query).get("limit", ["20"])[0])
                newest = [self._advanced(b).view() for b in reversed(self._batches.values())][:limit]
                return 200, {"object": "list", "data": newest, "has_more": len(self._batches) > limit}
            if len(parts) == 2 and parts[0] == "batches" and parts[1] in self._batches:
                self.polls += 1
                return 200, self._advanced(self._batches[parts[1]]).view()
            if len(parts) >= 2 and parts[0] == "files" and parts[1] in self._files:
                name, content = self._files[parts[1]]
                if parts[2:] == ["content"]:
                    return 200, content
                if not parts[2:]:
                    return 200, _file_view(parts[1], name, content)
        return 404, _error(f"no such object: {url.path}")

    # -- the operations ------------------------------------------------------------------------

    def _upload(self, raw: bytes, content_type: str) -> tuple[int, Any]:
        message = BytesParser(policy=HTTP).parsebytes(b"Content-Type: " + content_type.encode("latin-1")
                                                      + b"\r\n\r\n" + raw)
        fields: dict[str, tuple[str | None, bytes]] = {}
        if message.is_multipart():
            for part in message.iter_parts():
                name = part.get_param("name", header="content-disposition")
                fields[str(name)] = (part.get_filename(), part.get_payload(decode=True) or b"")
        if "file" not in fields or fields.get("purpose", (None, b""))[1] != b"batch":
            return 400, _error("expected a multipart upload with a file and purpose=batch")
        with self._lock:
            file_id = f"file-{next(self._ids)}"
            self._files[file_id] = (fields["file"][0] or "input.jsonl", fields["file"][1])
            self.uploads += 1
            return 200, _file_view(file_id, *self._files[file_id])

    def _create(self, request: Any, authorization: str | None) -> tuple[int, Any]:
        if not isinstance(request, dict):
            return 400, _error("expected a JSON object")
        endpoint, window = request.get("endpoint"), request.get("completion_window")
        if endpoint not in ENDPOINTS:
            return 400, _error(f"unsupported endpoint {endpoint!r}")
        if window != "24h":
            return 400, _error(f"completion_window must be '24h', not {window!r}")
        with self._lock:
            if request.get("input_file_id") not in self._files:
                return 404, _error(f"no such file: {request.get('input_file_id')!r}")
            lines, errors = self._lines(self._files[request["input_file_id"]][1], endpoint)
            behaviour = self.behaviour
            batch = _Batch(id=f"batch_{next(self._ids)}", endpoint=endpoint, input_file_id=request["input_file_id"],
                           window=window, metadata=request.get("metadata"), lines=lines, behaviour=behaviour,
                           authorization=authorization, created=time.time())
            if errors or behaviour.fail:
                batch.errors = errors or [{"code": "invalid_request", "message": behaviour.fail, "line": None}]
                batch.status, batch.ended = "failed", time.time()
            self._batches[batch.id] = batch
            self.created += 1
            return 200, batch.view()

    def _cancel(self, batch_id: str) -> tuple[int, Any]:
        with self._lock:
            batch = self._batches.get(batch_id)
            if batch is None:
                return 404, _error(f"no such batch: {batch_id}")
            self._advanced(batch)
            if batch.status not in TERMINAL:
                batch.cancel_requested = time.time()
                batch.status = "cancelling"
            return 200, batch.view()

    def _lines(self, content: bytes, endpoint: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The input file's requests, and what is wrong with them (OpenAI's validation)."""
        lines: list[dict[str, Any]] = []
        errors: list[dict[str, Any]] = []
        seen: set[str] = set()
        for number, raw in enumerate(content.decode("utf-8", "replace").splitlines(), 1):
            if not raw.strip():
                continue
            try:
                line = json.loads(raw)
            except json.JSONDecodeError:
                errors.append({"code": "invalid_json_line", "message": "not JSON", "line": number})
                continue
            problem = None
            if not isinstance(line, dict) or not isinstance(line.get("custom_id"), str):
                problem = "missing custom_id"
            elif line["custom_id"] in seen:
                problem = f"duplicate custom_id {line['custom_id']!r}"
            elif line.get("method") != "POST" or line.get("url") != endpoint:
                problem = f"expected method POST and url {endpoint}"
            elif not isinstance(line.get("body"), dict):
                problem = "missing body"
            elif self._models is not None and line["body"].get("model") not in self._models:
                problem = f"model {line['body'].get('model')!r} is not served"
            if problem:
                errors.append({"code": "invalid_request", "message": problem, "line": number})
                continue
            seen.add(line["custom_id"])
            lines.append(line)
        if not lines and not errors:
            errors.append({"code": "empty_file", "message": "the input file holds no request", "line": None})
        return lines, errors

    def _advanced(self, batch: _Batch) -> _Batch:
        """``batch`` brought up to now: its status, counts, and its files once it has ended."""
        if batch.status in TERMINAL:
            return batch
        now = time.time()
        behaviour = batch.behaviour
        if batch.cancel_requested is not None:
            elapsed = batch.cancel_requested - batch.created
            self._end(batch, "cancelled", self._done_by(batch, elapsed), expired=False)
            return batch
        elapsed = now - batch.created
        if elapsed >= behaviour.duration:
            if behaviour.expire:
                self._end(batch, "expired", int(len(batch.lines) * behaviour.expire_done), expired=True)
            else:
                self._end(batch, "completed", len(batch.lines), expired=False)
            return batch
        batch.status = "validating" if elapsed < behaviour.duration / 10 else "in_progress"
        batch.completed = self._done_by(batch, elapsed)
        return batch

    @staticmethod
    def _done_by(batch: _Batch, elapsed: float) -> int:
        duration = batch.behaviour.duration
        return len(batch.lines) if duration <= 0 else min(len(batch.lines), int(len(batch.lines) * elapsed / duration))

    def _end(self, batch: _Batch, status: str, done: int, *, expired: bool) -> None:
        kind = ENDPOINTS[batch.endpoint]
        output, errors = [], []
        for number, line in enumerate(batch.lines):
            request_id = f"req_{batch.id}_{number}"
            record: dict[str, Any] = {"id": f"batch_req_{batch.id}_{number}", "custom_id": line["custom_id"]}
            if number >= done:
                if expired:
                    errors.append({**record, "response": None, "error": {
                        "code": "batch_expired",
                        "message": "This request could not be executed before the completion window expired."}})
                continue  # cancelled: never run, in no file
            problem = batch.behaviour.line_error(line["body"]) if batch.behaviour.line_error else None
            if problem is not None:
                status_code, body = 400, _error(problem)
            else:
                status_code, body = self._answer(kind, line["body"], batch.authorization)
            record.update(response={"status_code": status_code, "request_id": request_id, "body": body}, error=None)
            (output if status_code == 200 else errors).append(record)
        batch.completed, batch.failed = len(output), len(errors)
        batch.output_file_id = self._store(f"{batch.id}_output.jsonl", output) if output else None
        batch.error_file_id = self._store(f"{batch.id}_error.jsonl", errors) if errors else None
        batch.status, batch.ended = status, time.time()

    def _store(self, name: str, records: list[dict[str, Any]]) -> str:
        file_id = f"file-{next(self._ids)}"
        self._files[file_id] = (name, "".join(json.dumps(r) + "\n" for r in records).encode("utf-8"))
        return file_id


def _file_view(file_id: str, name: str, content: bytes) -> dict[str, Any]:
    return {"id": file_id, "object": "file", "bytes": len(content), "created_at": int(time.time()),
            "filename": name, "purpose": "batch"}


def _error(message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "invalid_request_error"}}
