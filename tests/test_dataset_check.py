"""`wapii datasets check`: expected requests validated against their specs."""

from __future__ import annotations

import json
import shutil

import pytest
import typer
from typer.testing import CliRunner

from support import REPO, WAPIIBENCH, needs_shared
from wapii_core.cli.datasets import datasets_app
from wapii_core.datasets.check import check_dataset
from wapii_core.datasets.loader import load_dataset_dir, load_demo

BASE = "https://api.larchwood-library.example/v2"
HEADERS = {"Accept": "application/json, text/plain, */*", "Authorization": "Bearer <token>"}

# Every sample the check flags on WAPIIBench, with a fragment of the reason: the four whose curation
# check recorded a problem, and those whose vetted request breaks a rule of its spec.
WAPIIBENCH_FLAGGED = {
    "asana/133": "Recorded by the dataset's curation check: Argument 'limit' is not defined for location 'query'",
    "asana/162": "Recorded by the dataset's curation check: Argument 'limit' is not defined for location 'query'",
    "asana/165": "Recorded by the dataset's curation check: Argument 'limit' is not defined for location 'query'",
    "slack/50": "Recorded by the dataset's curation check: Argument 'user_id' is not defined for location "
                "'request body'",
    "asana/7": "Required argument missing: request body property 'data.workspace'",
    "asana/15": "'0' is not of type 'number'",
    "asana/22": "'1' is not of type 'number'",
    "asana/26": "'100' is not of type 'number'",
    "asana/27": "'50' is not of type 'number'",
    "asana/55": "is not a 'date-time'",
    "asana/57": "Tried to write read-only property",
    "asana/62": "is not of type 'string'",
    "asana/65": "is not of type 'string'",
    "asana/109": "is not of type 'string'",
    "asana/125": "Tried to write read-only property",
    "asana/158": "is not a 'date-time'",
    "asana/161": "is not of type 'object'",
    "slack/48": "cannot be empty",
    "slack/74": "is not of type 'number'",
    "slack/102": "Argument 'trigger_id' is not defined for location 'request body', method 'post', and URL "
                 "'https://slack.com/api/dialog.open'.",
    "slack/156": "Required argument missing: request body.",
    "slack/163": "is not of type 'string'",
}


@needs_shared("wapiibench", "dataset.json")
def test_wapiibench_flags_the_recorded_samples_and_the_spec_violations():
    dataset = load_dataset_dir(WAPIIBENCH, "wapiibench")
    problems = check_dataset(dataset)
    by_sample: dict[str, list[str]] = {}
    for problem in problems:
        by_sample.setdefault(problem.sample, []).append(problem.message)
    assert set(by_sample) == set(WAPIIBENCH_FLAGGED)
    for sample, fragment in WAPIIBENCH_FLAGGED.items():
        assert any(fragment in m for m in by_sample[sample]), (sample, by_sample[sample])
    recorded = {s.id for s in dataset.samples if s.checks != "OK"}
    assert recorded == {"asana/133", "asana/162", "asana/165", "slack/50"}


@needs_shared("wapiibench", "dataset.json")
def test_without_values_only_names_and_required_arguments_are_checked():
    problems = check_dataset(load_dataset_dir(WAPIIBENCH, "wapiibench"), values=False)
    assert {p.sample for p in problems} == {"asana/133", "asana/162", "asana/165", "slack/50", "slack/102",
                                            "slack/156"}


def test_the_demo_dataset_is_clean():
    assert check_dataset(load_demo()) == []


def sample(index: int, task: str, config: dict) -> dict:
    return {"api": "larchwood", "index": index, "task": task, "config": config, "checks": "OK", "vetted": True}


@pytest.fixture
def broken_dir(tmp_path):
    (tmp_path / "specs").mkdir()
    shutil.copyfile(REPO / "specs" / "demo" / "specs" / "larchwood.yaml", tmp_path / "specs" / "larchwood.yaml")
    good = {"url": f"{BASE}/books", "method": "get", "headers": HEADERS, "params": {"genre": "mystery"}}
    samples = [
        sample(0, "query in URL", {"url": f"{BASE}/books?genre=mystery", "method": "get", "headers": HEADERS}),
        sample(1, "unknown path", {"url": f"{BASE}/magazines", "method": "get", "headers": HEADERS}),
        sample(2, "undefined method", {"url": f"{BASE}/books", "method": "delete", "headers": HEADERS}),
        sample(3, "undeclared argument", {**good, "params": {"colour": "red"}}),
        sample(4, "missing required and bad enum", {"url": f"{BASE}/reports/overdue", "method": "get",
                                                    "headers": HEADERS, "params": {"format": "pdf"}}),
        sample(5, "wrong type", {**good, "params": {"published_after": "recently"}}),
        sample(6, "a good one", good),
        sample(7, "A  good one", {**good, "params": {"genre": "poetry"}}),
        sample(8, "the same request", good),
    ]
    (tmp_path / "dataset.json").write_text(json.dumps(samples))
    return tmp_path


def test_each_kind_of_problem_is_one_line(broken_dir):
    problems = [str(p) for p in check_dataset(load_dataset_dir(broken_dir, "broken"))]
    assert problems == [
        f"larchwood/0: URL '{BASE}/books?genre=mystery' seems to contain query parameters (which should be placed "
        "in `params`).",
        f"larchwood/1: URL '{BASE}/magazines' could not be matched to an existing path in the specification.",
        f"larchwood/2: Method 'delete' does not exist for path '{BASE}/books'.",
        f"larchwood/3: Argument 'colour' is not defined for location 'query', method 'get', and URL '{BASE}/books'.",
        "larchwood/4: Required argument missing: query parameter 'branch_id'.",
        "larchwood/4: Invalid value (enum) of query parameter 'format': 'pdf' is not one of ['json', 'csv']",
        "larchwood/5: Invalid value (type) of query parameter 'published_after': Failed to cast value to integer "
        "type: recently",
        "larchwood/7: Same task as sample larchwood/6.",
        "larchwood/8: Same expected request as sample larchwood/6.",
    ]


def cli() -> typer.Typer:
    app = typer.Typer()
    app.add_typer(datasets_app, name="datasets")
    return app


def test_cli_prints_one_line_per_problem_and_fails(broken_dir):
    done = CliRunner().invoke(cli(), ["datasets", "check", "--dataset-dir", str(broken_dir)])
    assert done.exit_code == 1
    lines = done.stdout.splitlines()
    assert len(lines) == 9 and lines[0].startswith("larchwood/0: URL")
    clean = CliRunner().invoke(cli(), ["datasets", "check", "--dataset", "demo"])
    assert clean.exit_code == 0 and clean.stdout == ""
