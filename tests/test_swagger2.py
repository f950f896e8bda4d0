"""Swagger 2.0 descriptions are converted to OpenAPI 3.0 on load (swagger2openapi on Node.js) and judged as such."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from support import run_cli
from wapii_core.openapi.parsing import read_document
from wapii_core.openapi.request_validation import OperationValidator
from wapii_core.openapi.index import SpecIndex

PETSTORE = Path(__file__).parent / "data" / "swagger2" / "petstore.yaml"
HEADERS = {"Accept": "application/json, text/plain, */*"}
SERVER = "https://petstore.swagger.io/v2"

pytestmark = pytest.mark.skipif(not (os.environ.get("WAPII_NODE") or shutil.which("node")),
                                reason="Node.js is not installed")

HAND_WRITTEN = [  # what the scaffold's templates leave out: a csv array, a whole form, a body with nested objects
    ("Find the pets that are available or pending.",
     {"url": f"{SERVER}/pet/findByStatus", "method": "get", "headers": HEADERS,
      "params": {"status": ["available", "pending"]}}),
    ("Rename pet 7 to Rex and mark it sold, with the store's form.",
     {"url": f"{SERVER}/pet/7", "method": "post",
      "headers": {**HEADERS, "Content-Type": "application/x-www-form-urlencoded"},
      "data": {"name": "Rex", "status": "sold"}}),
    ("Add the dog Rex, in category 1 'Dogs', tagged 'good', with one photo.",
     {"url": f"{SERVER}/pet", "method": "post", "headers": {**HEADERS, "Content-Type": "application/json"},
      "data": {"name": "Rex", "photoUrls": ["https://img.example/rex.png"], "category": {"id": 1, "name": "Dogs"},
               "tags": [{"id": 2, "name": "good"}], "status": "available"}}),
    ("Delete pet 7, authorising with the API key 'special-key'.",
     {"url": f"{SERVER}/pet/7", "method": "delete", "headers": {**HEADERS, "api_key": "special-key"}}),
]


def test_the_converted_description_is_what_is_indexed_and_validated() -> None:
    document = read_document(PETSTORE).data
    assert document["openapi"].startswith("3.0") and document["servers"] == [{"url": SERVER}]
    assert "Pet" in document["components"]["schemas"] and "swagger" not in document
    form = document["paths"]["/pet/{petId}"]["post"]["requestBody"]["content"]
    assert list(form) == ["application/x-www-form-urlencoded"]
    status = document["paths"]["/pet/findByStatus"]["get"]["parameters"][0]
    assert (status["style"], status["explode"], status["schema"]["type"]) == ("form", False, "array")

    index = SpecIndex.load(PETSTORE)
    assert index.server == SERVER and index.templates == list(document["paths"])
    assert index.is_legal("status", "params", "get", "/pet/findByStatus")
    assert index.is_legal("status", "data", "post", "/pet/{petId}")
    assert index.is_legal("api_key", "headers", "get", "/pet/{petId}")
    assert not index.is_legal("status", "params", "post", "/pet/{petId}")

    validator = OperationValidator.for_spec(PETSTORE)
    assert validator.validate({"method": "get", "params": {"status": ["available", "sold"]}}, "/pet/findByStatus") == []
    wrong = validator.validate({"method": "get", "params": {"status": ["lost"]}}, "/pet/findByStatus")
    assert [v.kind for v in wrong] == ["enum"]
    missing = validator.validate(
        {"method": "post", "data": {"name": "Rex"}, "headers": {"Content-Type": "application/json"}}, "/pet")
    assert [(v.kind, v.where) for v in missing] == [("missing_required", "request body property 'photoUrls'")]


@pytest.mark.slow
def test_the_oracle_scores_every_task_of_a_swagger_2_dataset(tmp_path: Path) -> None:
    dataset = tmp_path / "petstore"
    done = run_cli("datasets", "scaffold", "--spec", str(PETSTORE), "--out", str(dataset))
    assert done.returncode == 0, done.stderr
    assert "8 operation(s), 8 sample(s) written, 0 with check problems" in done.stderr
    samples = json.loads((dataset / "dataset.json").read_text())
    samples += [{"api": "petstore", "index": len(samples) + i, "task": task, "config": config}
                for i, (task, config) in enumerate(HAND_WRITTEN)]
    (dataset / "dataset.json").write_text(json.dumps(samples, indent=1))
    checked = run_cli("datasets", "check", "--dataset-dir", str(dataset))
    assert checked.returncode == 0, checked.stdout + checked.stderr

    for adapter in ("axios_js", "requests_py"):
        out = tmp_path / adapter
        done = run_cli("run", "--backend", "oracle", "--dataset-dir", str(dataset), "--adapter", adapter,
                       "--setup", "full", "--setup", "argument", "--out", str(out), "--quiet")
        assert done.returncode == 0, done.stderr
        for setup in ("full", "argument"):
            results = [json.loads(line) for line in (out / setup / "results.jsonl").read_text().splitlines()]
            assert len(results) == len(samples) == 12
            assert {r["verdict"] for r in results} == {"correct"}, [r for r in results if r["verdict"] != "correct"][:2]


@pytest.mark.slow
def test_the_conversion_is_cached_by_content_and_refused_in_one_line_without_node(tmp_path: Path) -> None:
    spec = tmp_path / "petstore.yaml"
    shutil.copyfile(PETSTORE, spec)
    assert run_cli("datasets", "scaffold", "--spec", str(spec), "--out", str(tmp_path / "a")).returncode == 0
    no_node = {"WAPII_NODE": str(tmp_path / "no-node")}
    (tmp_path / "no-node").write_text("")  # not executable
    again = run_cli("datasets", "scaffold", "--spec", str(spec), "--out", str(tmp_path / "b"), env=no_node)
    assert again.returncode == 0, again.stderr  # converted once: read from the cache, Node not needed

    spec.write_text(PETSTORE.read_text() + "\n# a changed file is converted again\n")
    refused = run_cli("datasets", "scaffold", "--spec", str(spec), "--out", str(tmp_path / "c"), env=no_node)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.splitlines() == [
        f"error: {spec}: a Swagger description (read as OpenAPI 3 by converting it with swagger2openapi 7.0.8 on "
        "Node.js), but Node.js (18 or newer) was not found: install it or set WAPII_NODE (or convert it yourself: "
        "`npx swagger2openapi petstore.yaml -o petstore.openapi3.yaml`)"]
    assert not (tmp_path / "c").exists()
