"""`wapii datasets check` on workflow tasks (several calls chained through the mock's answers), and the
shipped `workflows` dataset passing it."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from support import REPO, WAPIIBENCH, needs_shared, run_cli_in_process
from wapii_core.cli.datasets import workflow_replayer
from wapii_core.datasets.check import check_dataset, read_only
from wapii_core.datasets.loader import load_dataset_dir, load_workflows

BASE = "https://api.larchwood-library.example/v2"
TOKEN = {"Authorization": "Bearer <token>"}
KEY = {"X-Api-Key": "<key>"}
NEW_BOOK = {"url": f"{BASE}/books", "method": "post", "headers": TOKEN,
            "data": {"title": "Dune", "contributors": [{"name": "Frank Herbert"}]}}


def workflow(index: int, task: str, calls: list[dict], setup: list[dict] | None = None) -> dict:
    return {"api": "larchwood", "index": index, "task": task, "calls": calls, **({"setup": setup} if setup else {})}


def write_dataset(directory: Path, samples: list[dict]) -> Path:
    (directory / "specs").mkdir(parents=True)
    shutil.copyfile(REPO / "specs" / "demo" / "specs" / "larchwood.yaml", directory / "specs" / "larchwood.yaml")
    (directory / "dataset.json").write_text(json.dumps(samples))
    return directory


@pytest.fixture
def broken_dir(tmp_path: Path) -> Path:
    rename = {"url": f"{BASE}/books/{{{{0.id}}}}", "method": "patch", "headers": TOKEN, "data": {"title": "Dune II"}}
    return write_dataset(tmp_path, [
        workflow(0, "a good one: add a book, then retitle it", [NEW_BOOK, rename]),
        workflow(1, "a path not in the answer", [NEW_BOOK, {**rename, "url": f"{BASE}/books/{{{{0.book.id}}}}"}]),
        workflow(2, "a call the spec does not have", [NEW_BOOK, {"url": f"{BASE}/magazines", "method": "post",
                                                                 "headers": TOKEN, "data": {"title": "Wired"}}]),
        workflow(3, "an argument the operation does not declare", [NEW_BOOK, {**rename, "params": {"colour": "red"}}]),
        workflow(4, "changes nothing: a review is not kept by the mock", [
            {"url": f"{BASE}/books", "method": "get", "headers": KEY},
            {"url": f"{BASE}/books/{{{{0.books.0.id}}}}/reviews", "method": "post", "headers": TOKEN,
             "data": {"rating": 5}}],
            setup=[NEW_BOOK]),
        workflow(5, "a read-only task may change nothing", [
            {"url": f"{BASE}/books", "method": "get", "headers": KEY},
            {"url": f"{BASE}/books/{{{{0.books.0.id}}}}", "method": "get", "headers": KEY}], setup=[NEW_BOOK]),
        workflow(6, "a value the mock refuses", [NEW_BOOK, {**rename, "data": {"genres": ["cookery"]}}]),
        workflow(7, "a setup call the mock refuses", [{"url": f"{BASE}/books", "method": "get", "headers": KEY}],
                 setup=[{**NEW_BOOK, "headers": {}}]),
        workflow(8, "a good one: add a book, then retitle it", [NEW_BOOK, rename]),
    ])


def test_each_kind_of_broken_workflow_task_is_one_line(broken_dir: Path) -> None:
    dataset = load_dataset_dir(broken_dir, "broken")
    problems = [str(p) for p in check_dataset(dataset, replayer=workflow_replayer(dataset))]
    assert problems == [
        "larchwood/1: calls[1]: {{0.book.id}}: in the answer to call 0, the body is an object without 'book'",
        f"larchwood/2: calls[1]: URL '{BASE}/magazines' could not be matched to an existing path in the specification.",
        f"larchwood/3: calls[1]: Argument 'colour' is not defined for location 'query', method 'patch', and URL "
        f"'{BASE}/books/{{{{0.id}}}}'.",
        "larchwood/4: changes nothing: the store after its calls is the store after its setup (only a task whose "
        "calls all read, GET, HEAD or OPTIONS, may change nothing)",
        "larchwood/6: calls[1]: the mock answered 400 (400: request body property 'genres.0': 'cookery' is not one "
        "of ['fiction', 'mystery', 'science_fiction', 'fantasy', 'biography', 'history', 'science', 'children', "
        "'poetry'])",
        "larchwood/7: setup[0]: the mock answered 401 (401: missing credentials: the operation requires bearerAuth)",
        "larchwood/8: Same task as sample larchwood/0.",
        "larchwood/8: Same expected request as sample larchwood/0.",
    ]


def test_workflow_tasks_that_share_a_first_call_are_not_the_same_request(tmp_path: Path) -> None:
    first = {"url": f"{BASE}/books", "method": "get", "headers": KEY}
    dataset = load_dataset_dir(write_dataset(tmp_path, [
        workflow(0, "retitle the first book", [first, {"url": f"{BASE}/books/{{{{0.books.0.id}}}}", "method": "patch",
                                                     "headers": TOKEN, "data": {"title": "A"}}], setup=[NEW_BOOK]),
        workflow(1, "withdraw the first book", [first, {"url": f"{BASE}/books/{{{{0.books.0.id}}}}",
                                                      "method": "delete", "headers": TOKEN,
                                                      "params": {"reason": "lost"}}], setup=[NEW_BOOK]),
    ]), "two")
    assert check_dataset(dataset, replayer=workflow_replayer(dataset)) == []


def test_a_dataset_with_workflow_tasks_needs_a_replayer(broken_dir: Path) -> None:
    with pytest.raises(ValueError, match="needs a replayer"):
        check_dataset(load_dataset_dir(broken_dir, "broken"))


def test_cli_reports_a_failing_workflow_task_in_one_line_and_exits_2(broken_dir: Path) -> None:
    done = run_cli_in_process("datasets", "check", "--dataset-dir", str(broken_dir))
    assert done.returncode == 2, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [f"larchwood/{i}" for i in (1, 2, 3, 4, 6, 7, 8, 8)]
    assert done.stderr.strip() == f"{broken_dir.name}: 8 problem(s) in 7 of 9 samples"


def test_a_reference_to_a_later_call_is_refused_in_one_line(tmp_path: Path) -> None:
    later = workflow(0, "retitle a book before adding it", [
        {"url": f"{BASE}/books/{{{{1.id}}}}", "method": "patch", "headers": TOKEN, "data": {"title": "A"}}, NEW_BOOK])
    done = run_cli_in_process("datasets", "check", "--dataset-dir", str(write_dataset(tmp_path, [later])))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == (f"error: {tmp_path / 'dataset.json'}: sample 0 (larchwood/0): calls[0]: "
                                   "{{1.id}} names call 1, which does not come before it")


def test_the_workflows_dataset_needs_wapiibench_specs(tmp_path: Path) -> None:
    done = run_cli_in_process("datasets", "list", "--data-dir", str(tmp_path))
    line = next(line for line in done.stdout.splitlines() if line.startswith("workflows"))
    assert "not available (the workflows dataset needs WAPIIBench's specs" in line and "specs/asana.yaml" in line


@needs_shared("wapiibench", "specs", "asana.yaml")
def test_the_shipped_workflow_dataset_has_every_kind_of_task() -> None:
    dataset = load_workflows(WAPIIBENCH)
    raw = json.loads(dataset.source.read_text())
    assert len(dataset.samples) >= 60
    assert Counter(s.api for s in dataset.samples) == {"larchwood": 17, "asana": 20, "google_calendar_v3": 15,
                                                       "slack": 15}
    assert all(2 <= len(s.calls) <= 4 for s in dataset.samples)
    kinds = Counter(kind for entry in raw for kind in entry["kinds"])
    assert {"lookup", "pagination", "update", "fault", "read-only"} <= set(kinds)
    assert kinds["fault"] == sum(1 for s in dataset.samples if s.faults) >= 3
    # read-only is what the check decides by (every call a GET), and there are only a few
    assert [e["api"] + "/" + str(e["index"]) for e in raw if "read-only" in e["kinds"]] == \
        [s.id for s in dataset.samples if read_only(s)]
    assert kinds["read-only"] <= 3
    assert dataset.specs["larchwood"].resolve() == (REPO / "specs" / "demo" / "specs" / "larchwood.yaml").resolve()
    assert dataset.specs["asana"] == WAPIIBENCH / "specs" / "asana.yaml"


@pytest.mark.slow
@needs_shared("wapiibench", "specs", "asana.yaml")
def test_the_shipped_workflow_dataset_passes_the_check() -> None:
    done = run_cli_in_process("datasets", "check", "--dataset", "workflows", "--data-dir", str(WAPIIBENCH))
    assert done.returncode == 0, done.stdout
    assert done.stdout == ""
    assert done.stderr.strip() == "workflows: 0 problem(s) in 0 of 67 samples"


@needs_shared("wapiibench", "specs", "asana.yaml")
def test_the_shipped_fault_tasks_pass_the_check_and_their_429_is_waited_out() -> None:
    """The quick guard of the shipped dataset (the whole of it is the slow test above): its fault
    tasks, two per API, replay with exactly one 429 each and change the store."""
    from dataclasses import replace

    from wapii_core.mock import SpecMock
    from wapii_core.workflows.replay import replay

    dataset = load_workflows(WAPIIBENCH)
    faulted = replace(dataset, samples=[s for s in dataset.samples if s.faults])
    assert Counter(s.api for s in faulted.samples) == {"larchwood": 2, "asana": 2, "google_calendar_v3": 2, "slack": 2}
    assert check_dataset(faulted, replayer=workflow_replayer(faulted)) == []
    for sample in faulted.samples:
        run = replay(sample, SpecMock.for_spec(dataset.specs[sample.api]))
        assert sum(step.faulted for step in run.steps) == 1, sample.id
