"""The expected run of a workflow task, and the mock its programs run against.

Every program of a task (every draw, every adapter) and the task's expected run meet the same
mock: :func:`task_responder` derives it from the task's API description, seeded by the task's id
alone (:func:`workflow_seed`), with the task's ``setup`` replayed on it (references between setup
calls resolved) and its fault plan armed after that. :func:`replay` sends the task's ``calls`` on
such a mock as a correct program would (a ``429`` waited out and sent again, each reference resolved
from the answers so far) and keeps every answer and the end state: what a program is judged against.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from wapii_core.base.errors import InputError
from wapii_core.base.model import Sample
from wapii_core.base.references import UnresolvedReference, resolve

RETRIES_ON_429 = 5
"""How often a correct program sends a request again that was answered ``429`` (what the oracle does)."""


def workflow_seed(sample: Sample) -> int:
    """The mock's seed for every program of ``sample``: from its id alone, so that every draw and every
    adapter meets the same objects, identifiers and answers."""
    return int.from_bytes(hashlib.sha256(f"workflow:{sample.id}".encode()).digest()[:4], "big")


def parsed_body(body: bytes | str | None) -> Any:
    """An answer's body as JSON (None when empty or not JSON)."""
    if not body:
        return None
    try:
        return json.loads(body)
    except ValueError:
        return None


@dataclass
class Started:
    """A task's mock after its setup: the responder, the setup's answers (parsed) and the store's state."""

    responder: Any
    setup_answers: list[Any]
    before: dict[str, Any]


def task_responder(sample: Sample, mock: Any, where: str = "", template: "Started | None" = None) -> Started:
    """A fresh responder of ``mock`` (the :class:`~wapii_core.mock.SpecMock` of the task's API) with
    the task's setup replayed and its faults armed. A setup call the mock refuses, or a reference in
    it that resolves to nothing, is an :class:`InputError` naming the task (``where``: the dataset file).
    ``template``: the same task's responder made before, whose setup is forked instead of replayed
    (the same store: the setup's answers do not depend on anything else)."""
    from wapii_core.mock import FaultPlan, config_request
    from wapii_core.mock.faults import FaultState

    plan = FaultPlan.model_validate(sample.faults) if sample.faults else None
    if template is not None:
        return Started(template.responder.fork(plan), template.setup_answers, template.before)
    responder = mock.responder(seed=workflow_seed(sample))
    answers: list[Any] = []
    for position, call in enumerate(sample.setup_calls or []):
        try:
            config = resolve(call, [], answers)
        except UnresolvedReference as exc:
            raise InputError(where or sample.id, f"{sample.id} setup[{position}]: {exc}") from None
        response = responder.answer(config_request(config))
        if response.status >= 400:
            raise InputError(where or sample.id, f"{sample.id} setup[{position}]: the mock answered "
                                                 f"{response.status} ({response.reason})")
        answers.append(parsed_body(response.body))
    responder.faults = FaultState(plan)
    return Started(responder, answers, responder.state())


@dataclass
class ExpectedStep:
    """One expected call as the expected run sent it: references resolved, and its answer."""

    call: dict[str, Any]  # the resolved request configuration
    status: int
    answer: Any  # the parsed body
    faulted: int = 0  # 429s answered before it went through


@dataclass
class Replay:
    """The expected run of one task: its steps, the store before the calls (after setup) and after."""

    setup_answers: list[Any]
    steps: list[ExpectedStep] = field(default_factory=list)
    before: dict[str, Any] = field(default_factory=dict)
    after: dict[str, Any] = field(default_factory=dict)
    operations: list[str | None] = field(default_factory=list)  # each step's spec operation (the judge fills it once)

    @property
    def answers(self) -> list[Any]:
        return [step.answer for step in self.steps]


def replay(sample: Sample, mock: Any, where: str = "") -> Replay:
    """The task's expected run (see the module docstring). A call the mock refuses (other than a
    ``429`` of the fault plan), or a reference that resolves to nothing, is an :class:`InputError`:
    the task asks for something its API's mock does not do."""
    from wapii_core.mock import config_request

    if not sample.calls:
        raise InputError(where or sample.id, f"{sample.id} is not a workflow task (it has no 'calls')")
    started = task_responder(sample, mock, where)
    out = Replay(started.setup_answers, before=started.before)
    for position, call in enumerate(sample.calls):
        try:
            config = resolve(call, out.answers, started.setup_answers)
        except UnresolvedReference as exc:
            raise InputError(where or sample.id, f"{sample.id} calls[{position}]: {exc}") from None
        faulted = 0
        response = started.responder.answer(config_request(config))
        while response.status == 429 and faulted < RETRIES_ON_429:
            faulted += 1
            response = started.responder.answer(config_request(config))
        if response.status >= 400:
            raise InputError(where or sample.id, f"{sample.id} calls[{position}]: the mock answered "
                                                 f"{response.status} ({response.reason})")
        out.steps.append(ExpectedStep(config, response.status, parsed_body(response.body), faulted))
    out.after = started.responder.state()
    return out


def oracle_calls(sample: Sample, started: Started) -> list[dict[str, Any]]:
    """The task's calls as the oracle's program gets them: setup references replaced by the values
    the setup's answers hold (a program cannot read those answers), call references left for the
    program to read from its own answers."""
    return [resolve(call, [], started.setup_answers, setup_only=True) for call in sample.calls or []]
