"""The workflow checks every adapter that declares ``capabilities.workflows`` passes (docs/workflows.md),
written once: a plugin's ``test_workflow.py`` defines the fixture ``workflow_adapter`` (its adapter, or
each of its adapters) and imports these ``test_`` functions, which pytest then collects there.

The task is a 3-call Asana workflow run against the mock derived from WAPIIBench's Asana description,
seeded by a setup that created the project 'Apollo' in workspace 1201: list the workspace's
projects, create a task in that project, comment on the task by the identifier the answer gave.
Every program runs in the adapter's real sandbox, answered by the real :class:`SpecMock`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from support import shared_path
from wapii_core.base.model import Sample
from wapii_core.base.protocols import Dataset
from wapii_core.base.setups import Setup

BASE = "https://app.asana.com/api/1.0"
AUTH = {"Authorization": "Bearer <token>"}
TASK = ("Add a task named 'Draft press release' to the project 'Apollo' of workspace 1201, "
        "then comment 'First draft due Friday' on it.")
SETUP = [{"url": f"{BASE}/workspaces/1201/projects", "method": "post", "headers": AUTH,
          "data": {"data": {"name": "Apollo"}}}]
FAULT_ON_CREATE = {"faults": [{"status": 429, "operation": "POST /tasks", "times": 1, "retry_after": 1}]}
SEED = 1
PROGRAMS = Path(__file__).parent / "workflow_programs"
"""Hand-written completions of the workflow starter, one per library (``<library>.<ext>.txt``)."""


def asana_mock() -> Any:
    from wapii_core.mock import SpecMock

    return SpecMock.for_spec(shared_path("wapiibench", "specs", "asana.yaml"))


def project_gid() -> str:
    """The gid the mock gives the setup's project (the same for every responder of this seed)."""
    (gid,) = asana_mock().responder(seed=SEED, setup=SETUP).state()["collections"]["projects"]
    return gid


def workflow_calls(project: str | None = None) -> list[dict[str, Any]]:
    """The task's calls: the project by a literal gid (``project``) or by the reference
    ``{{0.data.0.gid}}`` (typed: the whole string); the task's gid spliced into the comment's URL."""
    return [
        {"url": f"{BASE}/projects", "method": "get", "headers": AUTH, "params": {"workspace": "1201"}},
        {"url": f"{BASE}/tasks", "method": "post", "headers": AUTH,
         "data": {"data": {"name": "Draft press release", "projects": [project or "{{0.data.0.gid}}"]}}},
        {"url": BASE + "/tasks/{{1.data.gid}}/stories", "method": "post", "headers": AUTH,
         "data": {"data": {"text": "First draft due Friday"}}},
    ]


def workflow_sample(calls: list[dict[str, Any]]) -> Sample:
    return Sample(api="asana", index=0, task=TASK, config=calls[0], calls=calls)


def run(adapter: Any, program: str, faults: dict[str, Any] | None = None) -> tuple[Any, Any]:
    """``program`` (a whole program) extracted and run against a fresh mock; (capture, responder)."""
    extraction = adapter.extract_program(program)
    assert extraction.error is None, extraction
    responder = asana_mock().responder(seed=SEED, setup=SETUP, faults=faults)
    (capture,) = adapter.execute([extraction.call], [responder])
    return capture, responder


def assert_task_and_story(responder: Any, project: str) -> dict[str, Any]:
    """The store holds one task named as asked in ``project`` and one story on that task; the task."""
    collections = responder.state()["collections"]
    ((task_gid, task),) = collections["tasks"].items()
    ((_, story),) = collections["stories"].items()
    assert task["name"] == "Draft press release"
    assert [p["gid"] for p in task["projects"]] == [project]
    assert story["text"] == "First draft due Friday" and story["task"]["gid"] == task_gid
    return task


def statuses(capture: Any) -> list[tuple[str, str, int]]:
    return [(e.method, e.url.split("?")[0].removeprefix(BASE), e.status) for e in capture.exchanges]


def test_the_oracle_program_runs_the_three_calls_through_the_answers(workflow_adapter) -> None:
    project = project_gid()
    calls = workflow_calls(project)
    program = workflow_adapter.render_workflow(calls, workflow_sample(calls))
    capture, responder = run(workflow_adapter, program)
    assert capture.error is None, capture.detail
    task_gid = json.loads(capture.exchanges[1].response.body)["data"]["gid"]
    assert statuses(capture) == [("GET", "/projects", 200), ("POST", "/tasks", 201),
                                 ("POST", f"/tasks/{task_gid}/stories", 201)]
    assert "workspace=1201" in capture.exchanges[0].url
    assert_task_and_story(responder, project)


def test_a_429_is_sent_again_after_its_retry_after(workflow_adapter) -> None:
    project = project_gid()
    calls = workflow_calls(project)
    program = workflow_adapter.render_workflow(calls, workflow_sample(calls))
    capture, responder = run(workflow_adapter, program, FAULT_ON_CREATE)
    assert capture.error is None, capture.detail
    assert [status for _, _, status in statuses(capture)] == [200, 429, 201, 201]
    refused, sent = capture.exchanges[1], capture.exchanges[2]
    assert ["Retry-After", "1"] in [[k.title(), v] for k, v in refused.response.headers]
    assert (refused.method, refused.url, refused.request.body) == (sent.method, sent.url, sent.request.body)
    assert_task_and_story(responder, project)


def test_typed_and_spliced_references_read_the_answers(workflow_adapter) -> None:
    """``{{0.data.0.gid}}`` as a whole string is the project's gid itself; ``{{1.data.completed}}`` keeps
    its JSON type (false, not "false"); ``{{1.data.gid}}`` is spliced into a URL and into a text."""
    calls = workflow_calls()
    calls[2]["data"]["data"] = {"text": "Task {{1.data.gid}} drafted", "is_pinned": "{{1.data.completed}}"}
    program = workflow_adapter.render_workflow(calls, workflow_sample(calls))
    assert "{{" not in program
    capture, responder = run(workflow_adapter, program)
    assert capture.error is None, capture.detail
    listed, created, commented = capture.exchanges
    project = json.loads(listed.response.body)["data"][0]["gid"]
    assert project == project_gid()
    assert json.loads(created.request.body)["data"]["projects"] == [project]
    task_gid = json.loads(created.response.body)["data"]["gid"]
    assert commented.url == f"{BASE}/tasks/{task_gid}/stories" and commented.status == 201
    assert json.loads(commented.request.body)["data"] == {"text": f"Task {task_gid} drafted", "is_pinned": False}
    (story,) = responder.state()["collections"]["stories"].values()
    assert story["text"] == f"Task {task_gid} drafted" and story["task"]["gid"] == task_gid


def test_a_program_that_ignores_the_answer_gets_a_404_and_fails(workflow_adapter) -> None:
    calls = workflow_calls(project_gid())
    calls[2]["url"] = f"{BASE}/tasks/1200000000999/stories"  # a made-up gid instead of {{1.data.gid}}
    program = workflow_adapter.render_workflow(calls, workflow_sample(calls))
    capture, responder = run(workflow_adapter, program)
    assert [status for _, _, status in statuses(capture)] == [200, 201, 404]
    assert capture.error == "runtime_error", capture
    assert responder.state()["collections"].get("stories", {}) == {}


def test_a_hand_written_program_looks_the_project_up_by_name(workflow_adapter) -> None:
    """A program in a model's own style (``workflow_programs/``): it finds 'Apollo' in the list by name,
    waits out the 429 and comments on the task it created; the same end state as the oracle's."""
    calls = workflow_calls(project_gid())
    dataset = Dataset(name="w", samples=[], specs={}, display_names={"asana": "Asana"},
                      source=shared_path("wapiibench", "dataset.json"), sha256="0" * 64)
    starter = workflow_adapter.prompt(workflow_sample(calls), Setup.workflow, dataset).starter
    (path,) = PROGRAMS.glob(f"{workflow_adapter.capabilities.library}.*.txt")
    capture, responder = run(workflow_adapter, starter + "\n" + path.read_text(encoding="utf-8"), FAULT_ON_CREATE)
    assert capture.error is None, capture.detail
    assert [status for _, _, status in statuses(capture)] == [200, 429, 201, 201]
    assert_task_and_story(responder, project_gid())


def test_the_workflow_prompt_has_the_starter_and_no_expected_call(workflow_adapter) -> None:
    calls = workflow_calls(project_gid())
    sample = workflow_sample(calls)
    dataset = Dataset(name="workflows", samples=[sample], specs={}, display_names={"asana": "Asana"},
                      source=shared_path("wapiibench", "dataset.json"), sha256="0" * 64)
    prompt = workflow_adapter.prompt(sample, Setup.workflow, dataset)
    assert prompt.text.endswith(prompt.starter) and prompt.text == prompt.instructions + prompt.starter
    assert TASK in prompt.starter and "Asana" in prompt.instructions
    assert "429" in prompt.instructions and "Retry-After" in prompt.instructions
    for call in calls:
        assert call["url"] not in prompt.text
    assert "app.asana.com" not in prompt.text and "/stories" not in prompt.text
    program = workflow_adapter.render_workflow(calls, sample)
    assert program.startswith(prompt.starter)


def test_extract_program_keeps_the_whole_program_and_drops_the_prose(workflow_adapter) -> None:
    """A model's answer: the program, its code block closed, prose after it. The program's extraction
    keeps all three requests (not cut at the first), and the prose is not run."""
    project = project_gid()
    calls = workflow_calls(project)
    program = workflow_adapter.render_workflow(calls, workflow_sample(calls))
    answer = program + "```\n\nThis program first lists the projects, then creates the task and comments on it.\n"
    extraction = workflow_adapter.extract_program(answer)
    assert extraction.error is None and "This program" not in extraction.call
    assert extraction.call.count("/stories") == 1
    assert extraction.span == (0, len(program))
    capture, responder = run(workflow_adapter, answer)
    assert capture.error is None, capture.detail
    assert len(capture.exchanges) == 3
    assert_task_and_story(responder, project)


@pytest.mark.parametrize("answer", ["", "{print}('done'){end}\n"])
def test_extract_program_without_a_request_says_so(workflow_adapter, answer) -> None:
    """The starter alone, or a program that never uses the library, is ``no_request``."""
    calls = workflow_calls(project_gid())
    dataset = Dataset(name="w", samples=[], specs={}, display_names={},
                      source=shared_path("wapiibench", "dataset.json"), sha256="0" * 64)
    starter = workflow_adapter.prompt(workflow_sample(calls), Setup.workflow, dataset).starter
    javascript = workflow_adapter.capabilities.language == "javascript"
    written = answer.format(print="console.log" if javascript else "print", end=";" if javascript else "")
    assert workflow_adapter.extract_program(starter + written).error == "no_request"


SLACK = "https://slack.com/api"
FORM = {"Authorization": "Bearer <token>", "Content-Type": "application/x-www-form-urlencoded"}
SLACK_SETUP = [{"url": f"{SLACK}/conversations.create", "method": "post", "headers": FORM, "data": {"name": "general"}}]


def test_form_bodies_carry_the_referenced_values(workflow_adapter) -> None:
    """Slack's form bodies (its Content-Type says so): a message posted to the setup's channel, then a
    reaction on it by the ``channel`` and ``ts`` its answer gave, both sent URL-encoded as the library
    sends a form, and answered by the mock of Slack's description."""
    from urllib.parse import parse_qs

    from wapii_core.mock import SpecMock

    mock = SpecMock.for_spec(shared_path("wapiibench", "specs", "slack.yaml"))
    (channel,) = mock.responder(seed=SEED, setup=SLACK_SETUP).state()["collections"]["conversations"]
    calls = [{"url": f"{SLACK}/chat.postMessage", "method": "post", "headers": FORM,
              "data": {"channel": channel, "text": "Hello"}},
             {"url": f"{SLACK}/reactions.add", "method": "post", "headers": FORM,
              "data": {"channel": "{{0.channel}}", "name": "thumbsup", "timestamp": "{{0.ts}}"}}]
    sample = Sample(api="slack", index=0, task="Post 'Hello' to #general and react to it with :thumbsup:.",
                    config=calls[0], calls=calls)
    extraction = workflow_adapter.extract_program(workflow_adapter.render_workflow(calls, sample))
    responder = mock.responder(seed=SEED, setup=SLACK_SETUP)
    (capture,) = workflow_adapter.execute([extraction.call], [responder])
    assert capture.error is None, capture.detail
    posted, reacted = capture.exchanges
    answer = json.loads(posted.response.body)
    assert answer["ok"] is True and parse_qs(posted.request.body) == {"channel": [channel], "text": ["Hello"]}
    assert parse_qs(reacted.request.body) == {"channel": [channel], "name": ["thumbsup"], "timestamp": [answer["ts"]]}
    assert json.loads(reacted.response.body) == {"ok": True}
