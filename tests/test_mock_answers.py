"""The mock answers every operation of WAPIIBench's four specs, the demo spec and GitHub's description
(1,223 operations) with what the spec declares: each operation's scaffolded request (every required
argument, values from its schema) is sent to a fresh responder, and the answer's status must be
declared (or be a documented fault) and its body validate against that status's schema, with formats
checked (``OAS30ReadValidator``, as openapi-core validates a response).

Both worlds: ``open_world`` (every identifier names an object, so every operation reaches its
action and answers its success) and the default one (what was not created is a 404, whose body
must match the declared 404 or ``default`` response). Only a request the scaffold's own check flags
(the judge's validator finds it invalid, or it names no real value) may be answered 400 or 422.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mock_support import DEMO, GITHUB, WAPIIBENCH, answer_problem, requests_by_operation
from support import needs_shared

SPECS = [pytest.param(DEMO, id="demo"),
         *(pytest.param(path, id=name, marks=needs_shared("wapiibench", "specs")) for name, path in WAPIIBENCH.items()),
         pytest.param(GITHUB, id="github", marks=[pytest.mark.slow, pytest.mark.skipif(
             not GITHUB.is_file(), reason=f"needs {GITHUB} (python benchmarks/bench_large_spec.py fetches it)")])]


@pytest.mark.parametrize("open_world", [True, False], ids=["open-world", "closed"])
@pytest.mark.parametrize("spec", SPECS)
def test_every_operation_answers_what_the_spec_declares(spec: Path, open_world: bool) -> None:
    from wapii_core.mock.spec_mock import SpecMock, config_request

    mock = SpecMock.load(spec)
    requests = requests_by_operation(spec)
    operations = {key for key in mock.steps if key[1] in ("get", "post", "put", "patch", "delete")}
    assert set(requests) == operations  # every operation is asked
    problems = []
    statuses = []
    for (template, method), config in requests.items():
        step = mock.steps[(config["routed"], method)]  # a URL two templates match goes to the first (as the judge's)
        response = mock.responder(0, open_world=open_world).answer(config_request(
            {k: v for k, v in config.items() if k not in ("flagged", "routed")}))
        statuses.append(response.status)
        where = f"{method.upper()} {template} -> {response.status}"
        expected_fault = (response.status in (400, 422) and config["flagged"]) or (response.status == 404 and not open_world)
        if response.status >= 400 and not expected_fault:
            problems.append(f"{where}: {response.reason}")
            continue
        problem = answer_problem(mock, step, response.status, response.body)
        if problem:
            problems.append(f"{where}: {problem}")
    assert not problems, f"{len(problems)} of {len(requests)}:\n" + "\n".join(problems[:20])
    if open_world:  # every request the scaffold's check passes reached its operation's success
        assert sum(200 <= s < 400 for s in statuses) >= sum(not c["flagged"] for c in requests.values())


def test_the_same_seed_gives_the_same_answers_and_another_seed_others() -> None:
    from wapii_core.mock.spec_mock import SpecMock, config_request

    mock = SpecMock.load(DEMO)
    requests = list(requests_by_operation(DEMO).values())

    def answers(seed: int) -> list[bytes]:
        responder = mock.responder(seed, open_world=True)
        return [responder.answer(config_request({k: v for k, v in config.items() if k not in ("flagged", "routed")})).body
                for config in requests]

    assert answers(7) == answers(7)
    assert answers(7) != answers(8)


def test_a_created_object_echoes_what_the_request_set_inside_the_spec_s_wrapper() -> None:
    """Asana wraps every object in ``{"data": ...}``: the created task sits there, with the name sent."""
    from wapii_core.mock.spec_mock import SpecMock, config_request

    spec = WAPIIBENCH["asana"]
    if not spec.is_file():
        pytest.skip(f"needs {spec} (set WAPII_SHARED)")
    mock = SpecMock.load(spec)
    responder = mock.responder(3)
    response = responder.answer(config_request({
        "url": "https://app.asana.com/api/1.0/tasks", "method": "post",
        "headers": {"Authorization": "Bearer <token>"},
        "data": {"data": {"name": "Draft press release", "workspace": "1201"}}}))
    assert response.status == 201
    task = json.loads(response.body)["data"]
    assert task["name"] == "Draft press release" and task["workspace"]["gid"] == "1201"
    assert responder.state()["collections"]["tasks"] == {task["gid"]: task}
    again = responder.answer(config_request({"url": f"https://app.asana.com/api/1.0/tasks/{task['gid']}",
                                             "method": "get", "headers": {"Authorization": "Bearer <token>"}}))
    assert json.loads(again.body)["data"]["name"] == "Draft press release"


@pytest.mark.slow  # the conversion runs swagger2openapi under Node once per spec content
def test_a_swagger_2_description_through_its_conversion() -> None:
    """The Petstore in its Swagger 2.0 shape: ``POST /pet`` declares no success answer, so the created
    pet itself is the body; its integer identifier is a counter; an unknown pet is a 404."""
    from support import REPO
    from wapii_core.mock.spec_mock import SpecMock, config_request

    mock = SpecMock.load(REPO / "tests" / "data" / "swagger2" / "petstore.yaml")
    responder = mock.responder()
    created = responder.answer(config_request({"url": "https://petstore.swagger.io/v2/pet", "method": "post",
                                               "headers": {"Authorization": "Bearer <token>"},
                                               "data": {"name": "Rex", "photoUrls": ["https://example.com/rex"]}}))
    assert created.status == 200
    pet = json.loads(created.body)
    assert pet["name"] == "Rex" and isinstance(pet["id"], int)
    read = responder.answer(config_request({"url": f"https://petstore.swagger.io/v2/pet/{pet['id']}", "method": "get",
                                            "headers": {"api_key": "<key>"}}))
    assert read.status == 200 and json.loads(read.body) == pet
    unknown = responder.answer(config_request({"url": f"https://petstore.swagger.io/v2/pet/{pet['id'] + 1}", "method": "get",
                                               "headers": {"api_key": "<key>"}}))
    assert unknown.status == 404


def test_a_mock_is_derived_once_per_spec_and_a_request_it_cannot_handle_is_a_500() -> None:
    import wapii_core.mock.spec_mock as spec_mock
    from wapii_core.mock.exchange import MockRequest
    from wapii_core.mock.spec_mock import SpecMock

    mock = SpecMock.for_spec(DEMO)
    assert SpecMock.for_spec(DEMO) is mock
    responder = mock.responder()
    mock.steps[("/books", "get")].pagination = "not a pagination"  # a mock in a state it cannot answer from
    try:
        answer = responder.answer(MockRequest("GET", "https://api.larchwood-library.example/v2/books",
                                              (("X-Api-Key", "<key>"),)))
    finally:
        spec_mock._memo.clear()  # the broken mock is not kept
    assert answer.status == 500 and json.loads(answer.body)["error"]["message"].startswith("the mock failed: ")


def test_the_worked_example_of_a_multi_step_task_on_asana() -> None:
    """Issue 42's example: a project made by ``setup``, found by a list filtered by its workspace, a
    task created in it (its ``projects`` naming it by identifier), a story on the task; the task is
    then listed under the project and the story under the task."""
    from wapii_core.mock.spec_mock import SpecMock, config_request

    spec = WAPIIBENCH["asana"]
    if not spec.is_file():
        pytest.skip(f"needs {spec} (set WAPII_SHARED)")
    server, auth = "https://app.asana.com/api/1.0", {"Authorization": "Bearer <token>"}
    responder = SpecMock.load(spec).responder(0, setup=[
        {"url": f"{server}/workspaces/1201/projects", "method": "post", "headers": auth, "data": {"data": {"name": "Apollo"}}}])

    def call(method: str, path: str, **config):
        answer = responder.answer(config_request({"url": server + path, "method": method, "headers": auth, **config}))
        assert 200 <= answer.status < 300, answer.reason
        return json.loads(answer.body)

    projects = call("get", "/projects", params={"workspace": "1201"})["data"]
    apollo = next(p["gid"] for p in projects if p["name"] == "Apollo")
    task = call("post", "/tasks", data={"data": {"name": "Draft press release", "projects": [apollo]}})["data"]
    assert [p["gid"] for p in task["projects"]] == [apollo]
    story = call("post", f"/tasks/{task['gid']}/stories", data={"data": {"text": "First draft due Friday"}})["data"]
    assert story["text"] == "First draft due Friday"
    assert [t["gid"] for t in call("get", f"/projects/{apollo}/tasks")["data"]] == [task["gid"]]
    assert [s["gid"] for s in call("get", f"/tasks/{task['gid']}/stories")["data"]] == [story["gid"]]
    state = responder.state()
    assert {name: len(objects) for name, objects in state["collections"].items()} == \
        {"projects": 1, "tasks": 1, "stories": 1}
    assert state["links"]["stories"] == {story["gid"]: {"tasks": task["gid"]}}
