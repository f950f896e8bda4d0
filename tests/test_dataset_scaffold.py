"""``wapii datasets scaffold``: a template task per endpoint that passes the spec's own check; OpenAPI 3.1
read directly (Swagger 2.0, converted on load: tests/test_swagger2.py)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from support import run_cli
from wapii_core.datasets.check import check_dataset
from wapii_core.datasets.scaffold import scaffold_dataset
from wapii_core.datasets.loader import load_dataset_dir, load_demo

OPENAPI_31 = """\
openapi: 3.1.0
info: {title: Kiln, version: '1'}
servers: [{url: 'https://kiln.example/v1'}]
security: [{token: []}]
components:
  securitySchemes:
    token: {type: http, scheme: bearer}
  schemas:
    Firing:
      type: object
      required: [cone, started]
      properties:
        cone: {type: integer, minimum: 1, maximum: 14}
        started: {type: string, format: date-time}
        note: {type: [string, 'null']}
paths:
  /kilns/{kiln_id}/firings:
    parameters:
      - {name: kiln_id, in: path, required: true, schema: {type: string, examples: [k-7]}}
    get:
      summary: List the firings of a kiln
      parameters:
        - {name: since, in: query, required: true, schema: {type: string, format: date}}
        - {name: limit, in: query, schema: {type: integer}}
      responses: {'200': {description: ok}}
    post:
      summary: Record a firing
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Firing'}
      responses: {'201': {description: created}}
  /kilns/{kiln_id}:
    delete:
      operationId: deleteKiln
      parameters:
        - {name: kiln_id, in: path, required: true, schema: {type: string, enum: [small, large]}}
      responses: {'204': {description: gone}}
"""


def test_the_demo_spec_scaffolds_clean_tasks_for_every_endpoint(tmp_path: Path) -> None:
    spec = load_demo().specs["larchwood"]
    report = scaffold_dataset(spec, tmp_path / "out", "larchwood")
    dataset = load_dataset_dir(tmp_path / "out", "larchwood")
    operations = sum(len(methods) for methods in dataset_paths(spec).values())
    assert report.operations == operations == report.written == len(dataset.samples)
    assert check_dataset(dataset) == [] and report.flagged == 0
    assert {(s.config["method"], s.api) for s in dataset.samples} >= {("get", "larchwood"), ("post", "larchwood")}


def dataset_paths(spec: Path) -> dict:
    from wapii_core.openapi.parsing import read_document

    methods = ("get", "put", "post", "patch", "delete")
    return {t: [m for m in item if m in methods] for t, item in read_document(spec).data["paths"].items()}


def test_openapi_31_is_read_directly_and_validated_in_its_own_dialect(tmp_path: Path) -> None:
    spec = tmp_path / "kiln.yaml"
    spec.write_text(OPENAPI_31)
    scaffold_dataset(spec, tmp_path / "out")
    dataset = load_dataset_dir(tmp_path / "out", "kiln")
    by_method = {s.config["method"]: s for s in dataset.samples}
    assert by_method["get"].config == {
        "url": "https://kiln.example/v1/kilns/k-7/firings", "method": "get",
        "headers": {"Accept": "application/json, text/plain, */*", "Authorization": "Bearer <token>"},
        "params": {"since": "2024-01-01"}}
    assert by_method["post"].config["data"] == {"cone": 1, "started": "2024-01-01T00:00:00Z"}
    assert by_method["delete"].config["url"].endswith("/kilns/small")
    assert "Record a firing" in by_method["post"].task and '"2024-01-01T00:00:00Z"' in by_method["post"].task
    assert check_dataset(dataset) == []

    post = by_method["post"]
    null_note = post.model_copy(update={"config": {**post.config, "data": {**post.config["data"], "note": None}}})
    bad_cone = post.model_copy(update={"config": {**post.config, "data": {"cone": "1", "started": "x"}}})
    checked = check_dataset(dataclasses.replace(dataset, samples=[null_note, bad_cone]))
    problems = [p.message for p in checked if p.message.startswith("Invalid")]  # null is a legal note in 3.1
    assert len(problems) == 2 and {p.sample for p in checked} == {post.id}
    assert any("'cone'" in p for p in problems) and any("'started'" in p for p in problems)


@pytest.mark.slow
def test_cli_scaffold_writes_a_dataset_and_refuses_a_used_directory(tmp_path: Path) -> None:
    spec = tmp_path / "kiln.yaml"
    spec.write_text(OPENAPI_31)
    done = run_cli("datasets", "scaffold", "--spec", str(spec), "--out", str(tmp_path / "d"), "--every", "2")
    assert done.returncode == 0, done.stderr
    assert "3 operation(s), 2 sample(s) written, 0 with check problems" in done.stderr
    again = run_cli("datasets", "scaffold", "--spec", str(spec), "--out", str(tmp_path / "d"))
    assert again.returncode == 2 and again.stderr.count("\n") == 1 and again.stderr.startswith("error: ")
