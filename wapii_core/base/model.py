"""The data that flows through a run, as pydantic models (the boundaries: files, CLI, plugins).

A request configuration (expected or captured) stays a plain ``dict`` with the keys ``url``,
``method``, ``headers`` and optionally ``params``, ``data`` and ``path_params``: whether a key is
present matters to the judging rules (docs: metrics.md §6), so it is not forced into a model with
defaults.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from wapii_core.base.setups import Setup  # noqa: F401  (re-exported: its home for most code)

FIELDS = ("headers", "params", "path_params", "data")
"""The argument fields of a request configuration, in report order."""

SPECIAL_HEADERS = ("Accept", "Content-Type")
"""Headers that get a verdict but never count (metrics.md §1)."""

ERROR_KINDS = ("timeout", "unsatisfiable", "no_request", "incomplete_request", "runtime_error")
"""Why a sample did not run; any of these makes the sample ``nonexecutable``."""


MAX_SHARDS = 100_000
"""More shards than any cluster runs one wapii run on: a larger count is a typo (or a forged run.json)."""
MAX_DRAWS = 10_000
"""More completions per task (``--draws``) than any pass@k needs: a larger number is a typo (or a forged
run.json, whose ``draws`` a merge or an evaluation would otherwise count out one by one)."""


class Shard(BaseModel):
    """Shard ``index`` of ``count`` (``0 <= index < count <= MAX_SHARDS``) of a run split by
    ``--shard`` (:mod:`wapii_core.run.shards`): the bounds the option enforces, and those a shard's
    ``run.json`` is read with."""

    index: int = Field(ge=0, strict=True)
    count: int = Field(ge=1, le=MAX_SHARDS, strict=True)

    @model_validator(mode="after")
    def _index_below_count(self) -> "Shard":
        if self.index >= self.count:
            raise ValueError(f"shard index {self.index} is not below the count {self.count}")
        return self

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, key: str) -> bool:
        """Whether the generation key ``<sample id>#<draw>`` belongs to this shard."""
        return shard_of(key, self.count) == self.index


def shard_of(key: str, count: int) -> int:
    """The shard (of ``count``) that the generation key ``<sample id>#<draw>`` belongs to."""
    import hashlib

    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()
    return int(digest[:16], 16) % count


TASK_SLOT = "{task}"
"""Where a context task's text goes in its ``starter_code`` (the comment ``// {task}``)."""


class CodeContext(BaseModel):
    """The real code around a task of the journal edition's real-world dataset (docs/datasets.md).

    ``starter_code`` is the real file up to the call (it ends with the call's start, ``axios.``) with
    :data:`TASK_SLOT` where the task text goes; ``definitions`` are the variables that exist when the
    call runs (``const <name> = <json>;`` before it, as the published pipeline does); ``template_url``
    is the URL as the code interpolates it (``https://x/users/${username}``), given in backticks in
    the argument setup; the rest is the code's provenance.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    starter_code: str
    definitions: dict[str, Any] = Field(default_factory=dict)
    template_url: str | None = None
    repo_name: str | None = None
    path: str | None = None
    ref: str | None = None
    license: str | None = None
    copyright: str | None = None


class Sample(BaseModel):
    """One task of a dataset and the request it expects (``context``: the real code it sits in)."""

    model_config = ConfigDict(extra="ignore")

    api: str
    index: int
    task: str
    config: dict[str, Any]
    checks: str = "OK"
    vetted: bool | None = None
    context: CodeContext | None = None
    calls: list[dict[str, Any]] | None = None
    """A workflow task's expected calls, in order (docs/workflows.md); ``config`` is then the first."""
    setup_calls: list[dict[str, Any]] | None = None
    """A workflow task's ``setup``: calls replayed on a fresh mock before its program runs."""
    faults: dict[str, Any] | None = None
    """A workflow task's fault plan (:class:`~wapii_core.mock.FaultPlan`'s JSON)."""

    @property
    def workflow(self) -> bool:
        """Whether the task is a workflow (``calls``) rather than one call (``config``)."""
        return self.calls is not None

    @property
    def id(self) -> str:
        """``"<api>/<index>"``, the sample's name in every run file."""
        return f"{self.api}/{self.index}"


class Prompt(BaseModel):
    """What a backend is asked to continue: ``text`` ends with ``starter``."""

    text: str
    starter: str
    instructions: str = ""  # the part of ``text`` before the starter (for chat-style backends)
    call_start: str = ""
    """What every call of the target library starts with (``axios.``, ``fetch(``, ``requests.``): how a
    chat answer's own call is found (:func:`wapii_core.generation.programs.chat_program`); empty: not said."""


class GenerationRequest(BaseModel):
    """One completion to produce: a prompt for one sample and one draw."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    sample: Sample
    draw: int = 0
    prompt: Prompt

    @property
    def key(self) -> str:
        return f"{self.sample.id}#{self.draw}"


FinishReason = Literal["stop", "length", "timeout", "unsatisfiable", "error"]


class ChatMessage(BaseModel):
    """One message of a chat prompt, as a chat backend sends it."""

    role: str
    content: str


class GenerationTimings(BaseModel):
    """What a generation cost, each value null where the backend does not know it."""

    latency_s: float | None = None  # seconds generating the answer (null: answered from a cache); where queue_s is
    # known, from the first token to the end, else from asking the model to its answer
    queue_s: float | None = None  # seconds from asking to the first token (waiting in a server's queue, reading
    # the prompt): known where answers are streamed
    tokens_in: int | None = None  # prompt tokens
    tokens_out: int | None = None  # generated tokens


class ResultTimings(BaseModel):
    """What judging one generation cost."""

    execution_s: float | None = None  # seconds the sandbox took to execute the extracted call


class Generation(BaseModel):
    """One line of ``generations.jsonl``: the full program (starter + completion) for one sample and draw."""

    sample: str
    draw: int = 0
    code: str | None = None
    finish_reason: FinishReason = "stop"
    error: str | None = None  # set when the backend failed; such a line is retried on resume
    raw: str | None = None  # what the model itself wrote (its completion or answer) before post-processing
    prompt: str | list[ChatMessage] | None = None
    """The prompt exactly as the backend received it: text, or chat messages (the backend says which;
    the run stores the prompt's text when the backend does not)."""
    timings: GenerationTimings | None = None

    @property
    def key(self) -> str:
        return f"{self.sample}#{self.draw}"


class Extraction(BaseModel):
    """The adapter's cut of one call out of a program (metrics.md §2)."""

    call: str | None = None
    error: str | None = None  # one of ERROR_KINDS when no call could be cut out
    span: tuple[int, int] | None = None
    """Character offsets ``[start, end)`` in the program of the code ``call`` was cut from (``call`` may
    add to it: a closing ``;``, the imports it needs); None when the extractor does not say."""


class ExchangeMessage(BaseModel):
    """What a record keeps of one message of an exchange: headers in order (the first 64), the body
    as UTF-8 text or, when it is not, base64 (its first 16 KiB), and the body's whole size in bytes."""

    model_config = ConfigDict(extra="forbid")

    headers: list[list[str]] = Field(default_factory=list)
    body: str | None = None
    body_base64: str | None = None
    size: int = 0


class Exchange(BaseModel):
    """One request a program sent and the answer its library was handed (:mod:`wapii_core.mock.exchange`),
    as the sandbox's supervisor saw them, outside the program's reach."""

    model_config = ConfigDict(extra="forbid")

    method: str
    url: str
    request: ExchangeMessage
    status: int
    response: ExchangeMessage
    note: str | None = None
    """The responder's note (``created tasks/1``, ``401: no bearer token``); never sent."""


class Capture(BaseModel):
    """What executing one extracted call produced: the request it issued, or why none."""

    request: dict[str, Any] | None = None  # the library's raw request config, as the adapter captured it
    error: str | None = None  # one of ERROR_KINDS
    detail: str | None = None  # a human-readable reason (exception message, "timeout after 2s", ...)
    execution_s: float | None = None  # seconds the execution took, where the adapter measured it
    exchanges: list[Exchange] | None = None
    """Every request the program sent and its answer, in order, when a responder answered them
    (``execute(calls, responders)``); None in the first-call benchmark, where nothing answers."""


class WorkflowStep(BaseModel):
    """One step of a judged workflow: an expected call paired with the request the program sent for
    it, an expected call the program never sent (``sent`` null), or a request it sent that the task
    does not expect (``expected`` null)."""

    expected: int | None = None  # the call's position in the task's ``calls``
    sent: int | None = None  # the request's position in the result's ``exchanges``
    endpoint: str | None = None  # "POST /tasks": the spec operation the request (else the call) resolved to
    write: bool = False  # the step changes state (its method is not GET, HEAD or OPTIONS)
    verdict: str | None = None  # the pair's verdict (today's rules); an extra request's: correct or illegal
    reasons: dict[str, str] = Field(default_factory=dict)


class WorkflowResult(BaseModel):
    """How a workflow program was judged (docs/workflows.md): its steps, the counts the workflow
    metrics sum, and the end state's differences."""

    steps: list[WorkflowStep] = Field(default_factory=list)
    expected_steps: int = 0
    sent_steps: int = 0  # requests sent, those answered with the task's injected faults not counted
    correct_steps: int = 0
    extra: int = 0
    illegal: int = 0
    missing_writes: int = 0
    end_state: bool = False  # the end state matches the expected one
    missing: list[str] = Field(default_factory=list)  # what the expected end state has that the program's lacks
    damage: list[str] = Field(default_factory=list)  # changes the task did not ask for
    failed: list[str] = Field(default_factory=list)
    """Why the verdict is not ``correct``: ``end_state``, ``missing_write``, ``illegal_request``,
    ``damage``, ``requests`` (a task that changes nothing: its expected reads are the evidence),
    ``did_not_run``."""


class SampleResult(BaseModel):
    """One line of ``results.jsonl``: how one generated sample was judged."""

    sample: str
    draw: int = 0
    api: str
    error: str | None = None
    error_detail: str | None = None
    verdict: Literal["correct", "wrong", "illegal", "nonexecutable"]
    url: str | None = None
    method: str | None = None
    endpoint: str | None = None
    arguments: dict[str, dict[str, str]] = Field(default_factory=dict)
    expected_arguments: dict[str, int] = Field(default_factory=dict)
    """Counted (non-special) expected arguments per field, path_params included: what a
    non-executable sample still contributes to the (t) denominators."""
    call: str | None = None
    request: dict[str, Any] | None = None  # the normalised captured request
    mode: str = "reference"
    expected_request: dict[str, Any] | None = None
    """The request the sample expects, in the shape of ``request`` (null: too large to store)."""
    reasons: dict[str, str] = Field(default_factory=dict)
    """``{"params.limit": "sent '50', expected 50"}``: why each verdict that is not ``correct`` is so
    (keys ``url``, ``method``, ``data`` for the body as a whole, and ``<field>.<name>``)."""
    resolved_endpoint: str | None = None
    """``"GET /v2/books"``: the method and the spec path the captured URL resolved to (null: none)."""
    call_span: tuple[int, int] | None = None
    """Character offsets ``[start, end)`` of ``call`` in the generation's program (null: not found as is)."""
    timings: ResultTimings | None = None
    exchanges: list[Exchange] | None = None
    """Every request the program sent and the answer it got, in order, when the sample's responder
    answered them (record version 3); None where nothing answered (the first-call benchmark)."""
    workflow: WorkflowResult | None = None
    """How a workflow task's program was judged (null for a one-call task)."""
    provisional: bool = False
    """True: the program never ran because no sandbox worker could start (``error_detail``
    ``worker_start_failed: ...``); counted as a ``runtime_error`` until a resumed run (or ``wapii
    evaluate``) judges it again (:mod:`wapii_core.judge.unstarted`)."""

    @property
    def key(self) -> str:
        return f"{self.sample}#{self.draw}"
