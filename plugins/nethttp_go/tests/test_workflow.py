"""Workflows (docs/workflows.md) in Go: the prompt asks for a whole program, ``extract_program`` keeps
it whole, and the oracle's program (``render_workflow``) runs in the real sandbox against the real mock
of WAPIIBench's Asana description, reading each ``{{N.path}}`` from the answers and sending a 429
again after its ``Retry-After``.

The programs run as one batch (one build, as a run builds them), each answered by a responder of its
own; the tests read what each run left: its capture (every exchange, in order) and its responder's
end state."""

from __future__ import annotations

import json
import os
import re

import pytest

from wapii_core.api import Sample, Setup

AUTH = {"Authorization": "Bearer <token>"}
BASE = "https://app.asana.com/api/1.0"
TASK = ("Add a task named 'Draft press release' to the project 'Apollo' of workspace 1201, "
        "then comment 'First draft due Friday' on it.")
SETUP = [{"url": f"{BASE}/workspaces/1201/projects", "method": "post", "headers": AUTH, "data": {"data": {"name": name}}}
         for name in ("Zeus", "Apollo")]  # Apollo's gid is then not the gid the task gets (one counter per collection)
FAULTS = {"faults": [{"status": 429, "operation": "POST /tasks", "times": 1, "retry_after": 1}]}
MADE_UP = "1200000000777"


def three_calls(project: str, task: str = "{{1.data.gid}}") -> list[dict]:
    """The issue's task, with ``{{s0.data.gid}}`` replaced by the setup project's ``project`` (as the
    oracle is given it) and the story sent to task ``task``."""
    return [
        {"url": f"{BASE}/projects", "method": "get", "headers": AUTH, "params": {"workspace": "1201"}},
        {"url": f"{BASE}/tasks", "method": "post", "headers": AUTH,
         "data": {"data": {"name": "Draft press release", "projects": [project]}}},
        {"url": f"{BASE}/tasks/{task}/stories", "method": "post", "headers": AUTH,
         "data": {"data": {"text": "First draft due Friday"}}},
    ]


READING = [  # every place a reference may stand: typed in a body, spliced in a URL, a header, a body string, a query
    {"url": f"{BASE}/projects", "method": "get", "headers": AUTH, "params": {"workspace": "1201"}},
    {"url": f"{BASE}/tasks", "method": "post", "headers": AUTH,
     "data": {"data": {"name": "Draft press release", "projects": ["{{0.data.1.gid}}"]}}},
    {"url": f"{BASE}/tasks/{{{{1.data.gid}}}}/stories", "method": "post",
     "headers": {**AUTH, "X-Trace": "task-{{1.data.gid}}"}, "data": {"data": {"text": "Filed under {{0.data.1.name}}"}}},
    # a boolean the answer holds, sent as a boolean: the mock answers 400 to the text "false"
    {"url": f"{BASE}/tasks/{{{{1.data.gid}}}}", "method": "put", "headers": AUTH,
     "data": {"data": {"completed": "{{0.data.1.archived}}"}}},
    {"url": f"{BASE}/tasks", "method": "get", "headers": AUTH, "params": {"project": "{{0.data.1.gid}}", "limit": 10}},
]


ODD = {"gid": "a b&c=d/\u00e9+%", "big": 12345678901234567890, "flag": True, "obj": {"k": [1, 2.5]}}
"""An answer's values that text, escaping and floating point would each get wrong."""
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
ODD_CALLS = [
    {"url": "https://api.test/things", "method": "get"},
    {"url": "https://api.test/forms", "method": "post", "headers": FORM,
     "data": {"name": "{{0.data.gid}}", "note": "n={{0.data.big}}", "plain": "x y"}},
    {"url": "https://api.test/uploads", "method": "post", "headers": {"Content-Type": "multipart/form-data"},
     "data": {"id": "{{0.data.gid}}"}},
    {"url": "https://api.test/json", "method": "post",
     "data": {"big": "{{0.data.big}}", "flag": "{{0.data.flag}}", "obj": "{{0.data.obj}}", "said": "{{0.data.obj}}!",
              "list": ["{{0.data.gid}}", 3, None, 1.5]}},
    {"url": "https://api.test/flags/{{0.data.flag}}", "method": "get", "params": {"q": "{{0.data.gid}}", "n": 2}},
    {"url": "https://api.test/text", "method": "put", "headers": {"Content-Type": "text/plain"}, "data": "id={{0.data.gid}}"},
]


class OddResponder:
    """Answers every request ``200`` with :data:`ODD` (a real responder, not the mock: the values are chosen)."""

    def answer(self, request):
        from wapii_core.kits.wire import MockResponse

        return MockResponse(200, (("Content-Type", "application/json"),), json.dumps({"data": ODD}).encode())


def sample(calls: list[dict]) -> Sample:
    return Sample(api="asana", index=0, task=TASK, config=calls[0])


def spec_mock():
    from support import shared_path
    from wapii_core.testing import SpecMock

    return SpecMock.for_spec(shared_path("wapiibench", "specs", "asana.yaml"))


def setup_project(mock) -> str:
    """The gid the setup's project 'Apollo' gets (the seed decides it: the same in every responder of seed 1)."""
    projects = mock.responder(seed=1, setup=SETUP).state()["collections"]["projects"]
    (gid,) = [gid for gid, project in projects.items() if project["name"] == "Apollo"]
    return gid


@pytest.fixture(scope="module")
def patient(tmp_path_factory):
    """An adapter whose programs may wait out a Retry-After (the default 2 s is a one-call budget)."""
    from wapii_nethttp_go.adapter import NetHttpGoAdapter

    with pytest.MonkeyPatch.context() as patch:  # the cache the tests' own fixture names
        patch.setenv("WAPII_CACHE_DIR", os.environ.get("WAPII_TEST_CACHE_DIR",
                                                       str(tmp_path_factory.getbasetemp() / "cache")))
        made = NetHttpGoAdapter(timeout_s=30)
        try:
            yield made
        finally:
            made.close()


@pytest.fixture(scope="module")
def runs(patient):
    """Each workflow's program built in one batch and run against a responder of its own:
    ``{name: (program, capture, responder)}``."""
    mock = spec_mock()
    project = setup_project(mock)
    workflows = {
        "plain": (three_calls(project), mock.responder(seed=1, setup=SETUP)),
        "fault": (three_calls(project), mock.responder(seed=1, setup=SETUP, faults=FAULTS)),
        "reading": (READING, mock.responder(seed=1, setup=SETUP)),
        "made_up": (three_calls(project, task=MADE_UP), mock.responder(seed=1, setup=SETUP)),
        "odd": (ODD_CALLS, OddResponder()),
    }
    programs = {name: patient.render_workflow(calls, sample(calls)) for name, (calls, _) in workflows.items()}
    responders = {name: responder for name, (_, responder) in workflows.items()}
    extracted = [patient.extract_program(programs[name]) for name in workflows]
    assert all(e.error is None for e in extracted)
    captures = patient.execute([e.call for e in extracted], [responders[name] for name in workflows])
    return {name: (programs[name], capture, responders[name]) for name, capture in zip(workflows, captures)}


def exchanges(capture) -> list[tuple[str, str, int]]:
    return [(e.method, e.url, e.status) for e in capture.exchanges or []]


def only(collection: dict) -> tuple[str, dict]:
    assert len(collection) == 1, collection
    return next(iter(collection.items()))


def assert_task_and_story(state: dict, project: str) -> None:
    task_gid, task = only(state["collections"]["tasks"])
    assert task["name"] == "Draft press release" and [p["gid"] for p in task["projects"]] == [project]
    story_gid, story = only(state["collections"]["stories"])
    assert story["text"] == "First draft due Friday"
    assert state["links"]["stories"][story_gid] == {"tasks": task_gid}


@pytest.mark.slow
def test_the_oracle_sends_the_three_calls_reading_the_task_from_the_answer(runs) -> None:
    program, capture, responder = runs["plain"]
    assert program.startswith(f"// {TASK}\npackage main\n\nimport \"net/http\"\n")
    assert capture.error is None, capture.detail
    project = setup_project(spec_mock())
    (task_gid, _) = only(responder.state()["collections"]["tasks"])
    assert task_gid != project  # the story's URL names the task the answer gave, not a gid the program knew
    assert exchanges(capture) == [("GET", f"{BASE}/projects?workspace=1201", 200), ("POST", f"{BASE}/tasks", 201),
                                  ("POST", f"{BASE}/tasks/{task_gid}/stories", 201)]
    assert json.loads(capture.exchanges[1].request.body) == {"data": {"name": "Draft press release", "projects": [project]}}
    assert_task_and_story(responder.state(), project)


@pytest.mark.slow
def test_a_429_is_sent_again_after_its_retry_after(runs) -> None:
    _, capture, responder = runs["fault"]
    assert capture.error is None, capture.detail
    assert [(method, status) for method, _, status in exchanges(capture)] == [("GET", 200), ("POST", 429), ("POST", 201),
                                                                              ("POST", 201)]
    assert ["Retry-After", "1"] in capture.exchanges[1].response.headers
    assert capture.exchanges[1].request.body == capture.exchanges[2].request.body
    assert responder.state() == runs["plain"][2].state()
    assert_task_and_story(responder.state(), setup_project(spec_mock()))


@pytest.mark.slow
def test_references_are_read_typed_or_spliced_wherever_they_stand(runs) -> None:
    program, capture, responder = runs["reading"]
    assert capture.error is None, capture.detail
    # the body holding a typed reference is a Go value marshalled, not text put together
    assert 'jsonText(map[string]any{"data": map[string]any{"completed": ref(answer0, "data.1.archived")}})' in program
    project = setup_project(spec_mock())
    state = responder.state()
    task_gid, task = only(state["collections"]["tasks"])
    assert [p["gid"] for p in task["projects"]] == [project]
    assert task["completed"] is False
    _, story = only(state["collections"]["stories"])
    assert story["text"] == "Filed under Apollo"
    assert exchanges(capture) == [
        ("GET", f"{BASE}/projects?workspace=1201", 200), ("POST", f"{BASE}/tasks", 201),
        ("POST", f"{BASE}/tasks/{task_gid}/stories", 201), ("PUT", f"{BASE}/tasks/{task_gid}", 200),
        ("GET", f"{BASE}/tasks?project={project}&limit=10", 200)]
    sent = capture.exchanges
    assert json.loads(sent[1].request.body)["data"]["projects"] == [project]
    assert json.loads(sent[3].request.body) == {"data": {"completed": False}}
    assert ["X-Trace", f"task-{task_gid}"] in [[k.title(), v] for k, v in sent[2].request.headers]
    assert [t["gid"] for t in json.loads(sent[4].response.body)["data"]] == [task_gid]


@pytest.mark.slow
def test_a_program_that_ignores_the_answer_gets_a_404_and_fails(runs) -> None:
    _, capture, responder = runs["made_up"]
    assert exchanges(capture)[-1] == ("POST", f"{BASE}/tasks/{MADE_UP}/stories", 404)
    assert capture.error == "runtime_error" and "answered 404" in capture.detail
    assert "stories" not in responder.state()["collections"]


@pytest.mark.slow
def test_odd_values_keep_their_type_and_are_escaped_where_they_are_spliced(runs) -> None:
    from urllib.parse import parse_qs, urlsplit

    program, capture, _ = runs["odd"]
    assert capture.error is None, capture.detail
    sent = capture.exchanges
    assert [e.url.split("?")[0] for e in sent] == ["https://api.test/things", "https://api.test/forms",
                                                  "https://api.test/uploads", "https://api.test/json",
                                                  "https://api.test/flags/true", "https://api.test/text"]
    assert parse_qs(sent[1].request.body, strict_parsing=True) == {
        "name": [ODD["gid"]], "note": ["n=12345678901234567890"], "plain": ["x y"]}
    assert f'name="id"\r\n\r\n{ODD["gid"]}\r\n' in sent[2].request.body
    assert json.loads(sent[3].request.body) == {"big": 12345678901234567890, "flag": True, "obj": {"k": [1, 2.5]},
                                                "said": '{"k":[1,2.5]}!', "list": [ODD["gid"], 3, None, 1.5]}
    assert parse_qs(urlsplit(sent[4].url).query, strict_parsing=True) == {"q": [ODD["gid"]], "n": ["2"]}
    assert sent[5].request.body == f"id={ODD['gid']}"
    assert 'form("name", text(ref(answer0, "data.gid")), "note", "n=" + text(ref(answer0, "data.big")), "plain", "x y")' \
        in program


def test_the_workflow_prompt_is_the_starter_without_the_expected_calls(patient, wapiibench) -> None:
    calls = READING
    prompt = patient.prompt(sample(calls), Setup.workflow, wapiibench)
    assert prompt.starter == f"// {TASK}\npackage main\n\nimport \"net/http\"\n"
    assert prompt.text == prompt.instructions + prompt.starter
    assert "Retry-After" in prompt.instructions and "429" in prompt.instructions
    assert "several requests" in prompt.instructions and "never make one up" in prompt.instructions
    for leak in ("app.asana.com", "/tasks", "/projects", "1201\"", "stories", "{{", "workspace="):
        assert leak not in prompt.text.replace(TASK, ""), leak
    # a task of several lines stays a comment
    several = Sample(api="asana", index=1, task="Create it.\nThen comment.", config=calls[0])
    assert patient.prompt(several, Setup.workflow, wapiibench).starter.startswith(
        "// Create it.\n// Then comment.\npackage main\n")


MODEL_PROGRAM = """// Add a task to Apollo, then comment on it.
package main

import "net/http"

type created struct {
	Data struct {
		Gid string `json:"gid"`
	} `json:"data"`
}

func main() {
	body := `{"data": {"name": "Draft press release", "projects": ["1200000001001"]}}`
	req, _ := http.NewRequest("POST", "https://app.asana.com/api/1.0/tasks", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer <token>")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	var task created
	json.NewDecoder(resp.Body).Decode(&task)
	story, _ := http.NewRequest("POST", "https://app.asana.com/api/1.0/tasks/"+task.Data.Gid+"/stories",
		strings.NewReader(`{"data": {"text": "First draft due Friday"}}`))
	story.Header.Set("Authorization", "Bearer <token>")
	http.DefaultClient.Do(story)
}
"""


def test_extract_program_keeps_the_whole_program_up_to_the_fence(patient) -> None:
    extraction = patient.extract_program(MODEL_PROGRAM + "```\n\nThis program creates the task, then "
                                         "`client.Do(story)` comments on it.\n```go\nfunc x() {\n```\n")
    assert extraction.error is None
    assert extraction.call == MODEL_PROGRAM  # not cut at the first request: the second is in it
    assert extraction.span == (0, len(MODEL_PROGRAM))
    assert patient.extract_program(MODEL_PROGRAM.rstrip("\n")).call == MODEL_PROGRAM


@pytest.mark.parametrize("code, error", [
    (MODEL_PROGRAM[: MODEL_PROGRAM.index("story.Header")], "incomplete_request"),  # ran out of tokens
    (MODEL_PROGRAM.replace("\"First draft due Friday\"}}`))", "\"First draft"), "incomplete_request"),
    ('// Do it.\npackage main\n\nimport "net/http"\n\nfunc main() {\n\t_ = http.MethodGet // client.Do(req)\n}\n',
     "no_request"),
])
def test_extract_program_refuses_what_cannot_run(patient, code: str, error: str) -> None:
    assert patient.extract_program(code).error == error


@pytest.mark.slow
def test_the_extracted_model_program_runs_whole(patient) -> None:
    """The model-like program (a typed struct decoded from the answer), run as extracted: both requests
    answered, the story sent to the task the mock made."""
    mock = spec_mock()
    responder = mock.responder(seed=1, setup=SETUP)
    (capture,) = patient.execute([patient.extract_program(MODEL_PROGRAM).call], [responder])
    assert capture.error is None, capture.detail
    (task_gid, _) = only(responder.state()["collections"]["tasks"])
    assert exchanges(capture) == [("POST", f"{BASE}/tasks", 201), ("POST", f"{BASE}/tasks/{task_gid}/stories", 201)]


@pytest.mark.parametrize("calls, message", [
    ([{"url": f"{BASE}/tasks/{{{{0.data.gid}}}}", "method": "get"}], r"call 0: \{\{0\.data\.gid\}\} names the answer to call 0"),
    ([{"url": f"{BASE}/tasks/{{{{s0.data.gid}}}}", "method": "get"}], r"names a setup call's answer"),
])
def test_a_reference_the_program_cannot_read_is_refused(calls, message) -> None:
    from wapii_nethttp_go.workflow import render_workflow_program

    with pytest.raises(ValueError, match=message):
        render_workflow_program(calls, sample(calls))


def test_values_without_references_are_written_as_the_one_call_program_writes_them() -> None:
    """The one-call rendering writes every literal part (no copy of it): the same URL, query and body text."""
    from wapii_nethttp_go.render import render_program
    from wapii_nethttp_go.workflow import render_workflow_program

    calls = three_calls("1200000001001")
    program = render_workflow_program(calls, sample(calls))
    target = re.search(r'http\.NewRequest\("GET", (.*), nil\)\n', render_program(calls[0], Setup.full, sample(calls)))
    assert f'\tsend("GET", {target.group(1)}, "", http.Header{{"Authorization": {{"Bearer <token>"}}}})\n' in program
    body = re.search(r'strings\.NewReader\((".*")\)\)\n', render_program(calls[1], Setup.full, sample(calls)))
    assert f'\tanswer1 := send("POST", "{BASE}/tasks", {body.group(1)}, http.Header{{' in program
    assert "answer0" not in program and "answer2" not in program  # only an answer read later is kept
    assert "func text(" in program and "func form(" not in program  # only the helpers it uses
