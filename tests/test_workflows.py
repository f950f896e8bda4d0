"""Workflow tasks (docs/workflows.md): references, the dataset format's checks, the expected run on
the task's mock, and real programs (requests_py, in the sandbox) judged by their requests and end state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import shared_path
from wapii_core.base.errors import InputError
from wapii_core.base.references import UnresolvedReference, find_references, resolve
from wapii_core.datasets.loader import load_dataset_dir

BASE = "https://app.asana.com/api/1.0"
AUTH = {"Authorization": "Bearer <token>"}
TASK = {
    "api": "asana", "index": 0,
    "task": "Add a task named 'Draft press release' to the project 'Apollo' of workspace 1201, then comment "
            "'First draft due Friday' on it.",
    "setup": [{"url": f"{BASE}/workspaces/1201/projects", "method": "post", "headers": AUTH,
               "data": {"data": {"name": "Apollo"}}}],
    "calls": [
        {"url": f"{BASE}/projects", "method": "get", "headers": AUTH, "params": {"workspace": "1201"}},
        {"url": f"{BASE}/tasks", "method": "post", "headers": AUTH,
         "data": {"data": {"name": "Draft press release", "projects": ["{{s0.data.gid}}"]}}},
        {"url": BASE + "/tasks/{{1.data.gid}}/stories", "method": "post", "headers": AUTH,
         "data": {"data": {"text": "First draft due Friday"}}}],
}


def dataset_dir(tmp_path: Path, entries: list[dict]) -> Path:
    (tmp_path / "specs").mkdir(parents=True)
    (tmp_path / "specs" / "asana.yaml").symlink_to(shared_path("wapiibench", "specs", "asana.yaml"))
    (tmp_path / "dataset.json").write_text(json.dumps(entries))
    return tmp_path


def test_a_reference_keeps_its_type_alone_and_is_text_inside_a_string():
    answers = [{"data": [{"gid": "12", "n": 3}]}]
    value = {"url": "x/{{0.data.0.gid}}/y", "n": "{{0.data.0.n}}", "both": "{{0.data.0.n}}-{{s0.id}}",
             "list": ["{{s0.id}}"]}
    assert resolve(value, answers, [{"id": 7}]) == {"url": "x/12/y", "n": 3, "both": "3-7", "list": [7]}
    assert resolve(value, [], [{"id": 7}], setup_only=True)["url"] == "x/{{0.data.0.gid}}/y"
    assert [str(r) for r in find_references(value)] == ["{{0.data.0.gid}}", "{{0.data.0.n}}", "{{0.data.0.n}}",
                                                        "{{s0.id}}", "{{s0.id}}"]
    with pytest.raises(UnresolvedReference, match="data has 1 items, no item 1"):
        resolve("{{0.data.1.gid}}", answers)
    with pytest.raises(UnresolvedReference, match="call 1 has no answer yet"):
        resolve("{{1.data}}", answers)


@pytest.mark.parametrize("change, problem", [
    (lambda t: t["calls"][1]["data"]["data"].update(name="{{2.data.gid}}"),
     "calls[1]: {{2.data.gid}} names call 2, which does not come before it"),
    (lambda t: t["calls"][0].update(url=BASE + "/projects/{{ 0.gid }}"), "is not a reference"),
    (lambda t: t.update(config=t["calls"][0]), "needs either 'config' (one call) or 'calls'"),
    (lambda t: t.update(faults={"faults": [{"status": 200}]}), "field 'faults'"),
    (lambda t: t["setup"][0].update(url=BASE + "/workspaces/{{0.data.gid}}/projects"),
     "setup[0]: {{0.data.gid}} names call 0"),
])
def test_a_broken_workflow_task_is_refused_in_one_line_naming_the_file(tmp_path, change, problem):
    task = json.loads(json.dumps(TASK))
    change(task)
    with pytest.raises(InputError) as caught:
        load_dataset_dir(dataset_dir(tmp_path, [task]), "broken")
    assert problem in str(caught.value) and "dataset.json" in str(caught.value) and "\n" not in str(caught.value)


@pytest.fixture(scope="module")
def task(tmp_path_factory):
    from wapii_core.mock import SpecMock
    from wapii_core.workflows.replay import replay

    ds = load_dataset_dir(dataset_dir(tmp_path_factory.mktemp("wf"), [TASK]), "wf")
    sample = ds.samples[0]
    mock = SpecMock.for_spec(ds.specs["asana"])
    return ds, sample, mock, replay(sample, mock)


def test_the_expected_run_chains_the_answers_and_changes_the_store(task):
    ds, sample, mock, expected = task
    assert sample.workflow and sample.config == TASK["calls"][0]
    project = expected.setup_answers[0]["data"]["gid"]
    assert [s.status for s in expected.steps] == [200, 201, 201]
    assert expected.steps[1].call["data"]["data"]["projects"] == [project]
    created = expected.steps[1].answer["data"]["gid"]
    assert expected.steps[2].call["url"] == f"{BASE}/tasks/{created}/stories"
    assert set(expected.after["collections"]) - set(expected.before["collections"]) == {"tasks", "stories"}
    assert created != project  # identifiers of two collections never coincide


PROGRAM = """import requests
H = {{"Authorization": "Bearer <token>"}}
B = "{base}"
projects = requests.get(B + "/projects", params={{"workspace": "1201"}}, headers=H).json()["data"]
gid = next(p["gid"] for p in projects if p["name"] == "Apollo")
{body}"""
CREATE = ('task = requests.post(B + "/tasks", json={"data": {"name": "Draft press release", "projects": [gid]}}, '
          'headers=H).json()["data"]\n')
COMMENT = ('requests.post(B + "/tasks/" + task["gid"] + "/stories", json={"data": {"text": "First draft due Friday"}}, '
           'headers=H).raise_for_status()\n')
PROGRAMS = {
    "correct": CREATE + COMMENT,
    "created twice": CREATE + CREATE + COMMENT,
    "stops after the look-up": "",
    "made-up identifier": CREATE + COMMENT.replace('task["gid"]', '"1200000000001"'),
    "wrong text": CREATE + COMMENT.replace("First draft", "Final draft"),
    "comments on the project": CREATE + COMMENT.replace('"/tasks/" + task["gid"]', '"/projects/" + gid'),
}
EXPECTED = {
    "correct": ("correct", []),
    "created twice": ("wrong", ["end_state", "damage"]),
    "stops after the look-up": ("wrong", ["end_state", "missing_write"]),
    "made-up identifier": ("wrong", ["end_state"]),
    "wrong text": ("wrong", ["end_state"]),
    "comments on the project": ("illegal", ["illegal_request", "end_state", "missing_write"]),
}


@pytest.fixture(scope="module")
def judged(task):
    from wapii_core.base import plugins
    from wapii_core.base.model import Generation
    from wapii_core.workflows.programs import WorkflowJudge

    ds = task[0]
    adapter = plugins.adapters.get("requests_py")()
    try:
        judge = WorkflowJudge(adapter, ds)
        generations = [Generation(sample="asana/0", draw=d, code=PROGRAM.format(base=BASE, body=body))
                       for d, body in enumerate(PROGRAMS.values())]
        yield dict(zip(PROGRAMS, judge(generations)))
    finally:
        adapter.close()


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_a_program_is_judged_by_its_end_state_and_every_request(judged, name):
    result = judged[name]
    verdict, failed = EXPECTED[name]
    assert (result.verdict, result.workflow.failed) == (verdict, failed), (result.error_detail, result.workflow)


def test_the_steps_pair_the_requests_with_the_calls_and_name_what_is_extra(judged):
    twice = judged["created twice"].workflow
    assert [(s.expected, s.sent, s.endpoint) for s in twice.steps] == [
        (0, 0, "GET /projects"), (1, 1, "POST /tasks"), (None, 2, "POST /tasks"),
        (2, 3, "POST /tasks/{task_gid}/stories")]
    assert twice.extra == 1 and twice.sent_steps == 4 and len(twice.damage) >= 1
    assert "tasks/" in twice.damage[0] and "created, which the task does not ask for" in twice.damage[0]
    correct = judged["correct"].workflow
    assert correct.correct_steps == correct.expected_steps == correct.sent_steps == 3
    assert len(judged["correct"].exchanges) == 3


def test_the_workflow_metrics_sum_the_programs_with_intervals(judged):
    from wapii_core.report.workflow_metrics import WorkflowMetrics

    values = WorkflowMetrics().aggregate(judged.values())
    assert values["task success"] == pytest.approx(1 / 6) and values["programs"] == 6 and values["tasks"] == 1
    assert values["collateral damage"] == pytest.approx(1 / 6)
    low, high = values["interval"]["task success"]["low"], values["interval"]["task success"]["high"]
    assert low <= values["task success"] <= high
    assert WorkflowMetrics().aggregate([]) == {}


@pytest.mark.slow
def test_replayed_programs_of_a_dataset_the_project_did_not_write_are_judged_from_the_command_line(tmp_path):
    """``wapii run --backend replay --setup workflow --dataset-dir DIR``: a correct hand-written
    program is correct; one with a made-up identifier, one that creates twice and one that stops
    after the first step are not; the oracle on the same directory scores 100 % with axios_js,
    requests_py and nethttp_go; a one-call setup on it is refused in one line."""
    from support import run_cli_in_process
    from test_cli import one_line_error

    directory = dataset_dir(tmp_path / "data", [TASK])
    names = ["correct", "made-up identifier", "created twice", "stops after the look-up"]
    generations = tmp_path / "programs.jsonl"
    generations.write_text("".join(json.dumps({"sample": "asana/0", "draw": d,
                                               "code": PROGRAM.format(base=BASE, body=PROGRAMS[name])}) + "\n"
                                   for d, name in enumerate(names)))
    out = tmp_path / "replayed"
    done = run_cli_in_process("run", "--backend", "replay", "--generations", str(generations), "--draws", "4",
                              "--setup", "workflow", "--dataset-dir", str(directory), "--adapter", "requests_py",
                              "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    verdicts = {names[r["draw"]]: r["verdict"] for r in results}
    assert verdicts == {"correct": "correct", "made-up identifier": "wrong", "created twice": "wrong",
                        "stops after the look-up": "wrong"}
    summary = json.loads((out / "summary.json").read_text())
    assert summary["metrics"]["workflows"]["task success"] == 0.25
    for adapter in ("requests_py", "axios_js", "nethttp_go"):
        oracle = run_cli_in_process("run", "--backend", "oracle", "--setup", "workflow", "--dataset-dir",
                                    str(directory), "--adapter", adapter, "--out", str(tmp_path / adapter), "--quiet")
        assert oracle.returncode == 0, oracle.stderr
        summary = json.loads((tmp_path / adapter / "summary.json").read_text())
        assert summary["metrics"]["workflows"]["task success"] == 1.0, adapter
    refused = run_cli_in_process("run", "--backend", "oracle", "--dataset-dir", str(directory), "--adapter",
                                 "requests_py", "--out", str(tmp_path / "refused"))
    one_line_error(refused, "run them with --setup workflow")
