"""The compiled validation engine gives openapi-core's answers, request by request, and nothing makes it raise.

Every request is validated twice, by the compiled engine (``engine="compiled"``) and by openapi-core
itself (``engine="reference"``, the path every request took before the compiled engine existed),
and the two lists of violations (kind, where, message, in order) must be equal. The requests:
every expected request of WAPIIBench and of the demo dataset (what the oracle sends), every request
corpus_a's programs capture when executed, and a seeded hostile corpus derived from the expected
requests (values of every JSON type and odd strings in every field, fields removed, bodies and
Content-Types swapped, fields of the wrong shape).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

import pytest

from support import CONFORMANCE, WAPIIBENCH, needs_shared, run_cli
from wapii_core.datasets.loader import load_dataset_dir, load_demo
from wapii_core.base.model import SampleResult
from wapii_core.openapi.request_validation import NotCompiled, OperationValidator, Violation
from wapii_core.base.protocols import Dataset
from wapii_core.openapi.index import SpecIndex
from wapii_core.judge.spec_validation import SpecValidation, _operation_template

needs_wapiibench = needs_shared("wapiibench", "dataset.json")

ODD_VALUES: list[Any] = [
    7, -1, 0, 1.5, -0.0, 10**20, True, False, None, "", " ", "abc", "1e5", "NaN", "true", "0", "-3", "1,2,3",
    "2020-01-02", "2020-01-02T03:04:05Z", "ü\u00e9\u2028\u0000", "x" * 5000, [], [1, "a"], ["x", "y"], ["1", "2"],
    [True, None], {}, {"a": {"b": [1]}}, [[[[["deep"]]]]], {"nested": {"nested": {"nested": [{}]}}},
]
CONTENT_TYPES: list[Any] = [
    "application/json", "application/x-www-form-urlencoded", "multipart/form-data", "text/plain", "", "*/*",
    "application/json; charset=utf-8", "APPLICATION/JSON", "application/vnd.api+json", 5, None,
]
FIELDS = ("params", "headers", "data", "path_params")


def hostile_variants(config: dict[str, Any], rng: random.Random, count: int) -> Iterator[dict[str, Any]]:
    """``count`` seeded mutations of an expected request (see the module docstring)."""
    for _ in range(count):
        mutated = copy.deepcopy(config)
        filled = [f for f in FIELDS if isinstance(mutated.get(f), dict) and mutated[f]]
        action = rng.randrange(7)
        if action <= 2 and filled:
            field = rng.choice(filled)
            mutated[field][rng.choice(list(mutated[field]))] = rng.choice(ODD_VALUES)
        elif action == 3 and filled:
            field = rng.choice(filled)
            del mutated[field][rng.choice(list(mutated[field]))]
        elif action == 4:
            mutated.setdefault("headers", {})["Content-Type"] = rng.choice(CONTENT_TYPES)
        elif action == 5 and filled:
            field = rng.choice(filled)
            mutated[field][rng.choice(["unknown", "limit", "Content-Type", "opt_fields"])] = rng.choice(ODD_VALUES)
        else:
            mutated[rng.choice(FIELDS)] = rng.choice(ODD_VALUES)
        yield mutated


def compare(dataset: Dataset, requests: list[tuple[str, dict[str, Any]]]) -> Counter:
    """Validate each (api, request) with both engines; assert equal answers; count what was compiled."""
    counts: Counter = Counter()
    for api, request in requests:
        spec = SpecIndex.load(dataset.specs[api])
        validator = OperationValidator.for_spec(dataset.specs[api])
        request = dict(request)
        template = _operation_template(spec, request, strict=False)
        if template is None:
            continue
        request.setdefault("path_params", spec.path_params(request.get("url")))
        reference = validator.validate(request, template, engine="reference")
        counts["validated"] += 1
        try:
            compiled = validator.validate(request, template, engine="compiled")
        except NotCompiled:
            counts[f"left to openapi-core: {api} {request.get('method')} {template}"] += 1
            continue
        counts["compiled"] += 1
        counts["with violations"] += bool(reference)
        assert compiled == reference, (api, template, request)
    return counts


def assert_covered(counts: Counter, most_left: int) -> None:
    """The compiled engine answered all but ``most_left`` requests (the comparison is not vacuous)."""
    left = counts["validated"] - counts["compiled"]
    assert counts["validated"] > 0 and left <= most_left, counts


@pytest.fixture(scope="module")
def wapiibench() -> Dataset:
    return load_dataset_dir(WAPIIBENCH, "wapiibench")


@needs_wapiibench
def test_the_oracle_requests_get_openapi_cores_answers(wapiibench: Dataset) -> None:
    demo = load_demo()
    counts = compare(wapiibench, [(s.api, s.config) for s in wapiibench.samples])
    counts += compare(demo, [(s.api, s.config) for s in demo.samples])
    assert counts["with violations"] >= 15  # the dataset's own schema violations (docs/datasets.md: datasets check)
    assert_covered(counts, most_left=0)


@pytest.mark.slow
@needs_wapiibench
@needs_shared("conformance", "corpus_a")
def test_corpus_a_captured_requests_get_openapi_cores_answers(wapiibench: Dataset, tmp_path: Path) -> None:
    done = run_cli("run", "--dataset", "wapiibench", "--data-dir", str(WAPIIBENCH), "--backend", "replay",
                   "--generations", str(CONFORMANCE / "corpus_a"), "--metric", "wapii", "--out",
                   str(tmp_path / "run"), "--quiet")
    assert done.returncode == 0, done.stderr
    results = [SampleResult.model_validate_json(line)
               for line in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    counts = compare(wapiibench, [(r.api, r.request) for r in results if r.request is not None])
    assert counts["validated"] >= 250 and counts["with violations"] >= 20
    assert_covered(counts, most_left=0)


@needs_wapiibench
def test_hostile_values_get_openapi_cores_answers(wapiibench: Dataset) -> None:
    rng = random.Random(0)
    demo = load_demo()
    counts = Counter()
    for dataset in (wapiibench, demo):
        requests = [(s.api, variant) for s in dataset.samples for variant in hostile_variants(s.config, rng, 1)]
        counts += compare(dataset, requests)
    assert counts["with violations"] >= counts["validated"] // 5
    assert_covered(counts, most_left=counts["validated"] // 50)


SHAPES: list[dict[str, Any]] = [
    {"path_params": 7}, {"path_params": [1, 2]}, {"headers": ["Authorization", "x"]}, {"headers": "text"},
    {"params": "limit=5"}, {"params": [["limit", 5]]}, {"params": {"limit": {"$gt": 1}}}, {"data": 7},
    {"data": ["a", {"b": None}]}, {"data": "x" * 100_000}, {"headers": {"X-Trace": "a\r\nInjected: 1"}},
    {"headers": {"Content-Type": ["application/json"]}}, {"headers": {"Content-Type": {"x": 1}}},
    {"method": {"get": 1}}, {"method": None}, {"url": 12}, {"url": ["https://app.asana.com/api/1.0/tasks"]},
    {"params": {"limit": 10**5000}}, {"data": {"name": 10**5000}},
]


def deep(levels: int) -> Any:
    value: Any = "bottom"
    for _ in range(levels):
        value = {"a": [value]}
    return value


@needs_wapiibench
def test_no_value_in_any_field_makes_validation_raise(wapiibench: Dataset) -> None:
    base = next(s.config for s in wapiibench.samples if s.config.get("data") and s.config.get("params") is None
                and s.api == "asana")
    requests = [{**copy.deepcopy(base), **shape} for shape in SHAPES]
    requests += [{**copy.deepcopy(base), "data": deep(5000)}, {**copy.deepcopy(base), "params": {"x": deep(5000)}}]
    results = [SampleResult(sample=f"asana/{i}", api="asana", verdict="wrong", request=r)
               for i, r in enumerate(requests)]
    summary = SpecValidation().aggregate(results, wapiibench)  # must not raise
    assert summary["Executed requests"] == len(requests)
    messages = summary["violations"]
    assert any("expected an object, got a number" in m for m in messages["asana/0#0"])
    assert any("line break" in m for m in messages["asana/10#0"])
    assert any("could not be validated" in m for m in messages[f"asana/{len(SHAPES) - 2}#0"])

    spec = SpecIndex.load(wapiibench.specs["asana"])
    validator = OperationValidator.for_spec(wapiibench.specs["asana"])
    template = _operation_template(spec, base, strict=False)
    for request in requests + [None, [], "text"]:  # type: ignore[list-item]
        for engine in ("auto", "reference"):
            found = validator.validate(request, template, engine=engine)
            assert isinstance(found, list) and all(isinstance(v, Violation) for v in found)
        assert validator.content_type_declared(request, template) in (True, False, None)


EDGE_SPEC = """\
openapi: 3.0.3
info: {title: edge, version: "1"}
servers: [{url: "https://edge.example/v1"}, {url: "https://edge.example/v1/projects/{gid}"}]
paths:
  /tasks:
    get:
      parameters: [{name: limit, in: query, schema: {type: integer}}]
  /projects/{gid}/tasks:
    parameters: [{name: gid, in: path, required: true, schema: {type: string}}]
    get:
      parameters: [{name: archived, in: query, required: true, schema: {type: boolean}}]
  /items/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: integer}}
      - {name: X-Mode, in: header, schema: {type: string, enum: [a, b]}}
    get:
      parameters:
        - {name: tags, in: query, schema: {type: array, items: {type: integer}}}
        - {name: csv, in: query, explode: false, schema: {type: array, items: {type: number}}}
        - {name: empty_ok, in: query, allowEmptyValue: true, schema: {type: string}}
        - {name: must, in: query, schema: {type: string, default: "x", minLength: 3}}
        - {name: session, in: cookie, required: true, schema: {type: string}}
        - {name: any, in: query, schema: {}}
        - {name: small, in: query, schema: {$ref: '#/components/schemas/Small'}}
        - {name: when, in: query, schema: {type: string, format: date}}
        - $ref: '#/components/parameters/Flag'
    put:
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [name]
              properties:
                name: {type: string}
                count: {type: integer}
                flags: {type: array, items: {type: boolean}}
                level: {type: number, default: 1.5, maximum: 1}
  /deep:
    get:
      parameters: [{name: filter, in: query, style: deepObject, explode: true, schema: {type: object}}]
  /content:
    get:
      parameters: [{name: q, in: query, content: {application/json: {schema: {type: object}}}}]
  /mixed:
    post:
      requestBody: {content: {Application/JSON: {schema: {type: object}}}}
  /nodes:
    post:
      requestBody: {content: {application/vnd.api+json: {schema: {$ref: '#/components/schemas/Node'}}}}
  /upload:
    post:
      requestBody:
        content:
          multipart/form-data:
            schema:
              type: object
              required: [file]
              properties:
                file: {type: integer}
                names: {type: array, items: {type: string, maxLength: 1}}
                blob: {type: string, format: binary}
                untyped: {description: read as bytes, default: 3}
                meta: {type: object}
  /runs/{run_id}:
    parameters:
      - {name: run_id, in: path, required: true, schema: {oneOf: [{type: integer}, {type: string}]}}
    get:
      parameters:
        - {name: fields, in: query, schema: {oneOf: [{type: string}, {type: array, maxItems: 1, items: {type: string}}]}}
        - {name: size, in: query, schema: {anyOf: [{type: integer, maximum: 5}, {type: boolean}]}}
        - {name: ratio, in: query, schema: {allOf: [{type: number}, {minimum: 1}]}}
        - {name: mode, in: query, schema: {oneOf: [{$ref: '#/components/schemas/Small'}, {type: integer}]}}
        - {name: X-Count, in: header, schema: {oneOf: [{type: boolean}, {type: integer, minimum: 2}]}}
    patch:
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              properties:
                level: {oneOf: [{type: integer}, {type: boolean}]}
  /text:
    post:
      requestBody: {content: {text/plain: {schema: {type: object, required: [a]}}}}
components:
  parameters:
    Flag: {name: flag, in: query, schema: {type: boolean}}
  schemas:
    Small: {type: string, maxLength: 2}
    Node:
      type: object
      required: [id]
      properties:
        id: {type: integer}
        children: {type: array, items: {$ref: '#/components/schemas/Node'}}
"""

EDGE_URL = "https://edge.example/v1"
EDGE_REQUESTS: list[tuple[dict[str, Any], bool]] = [  # (request, answered by the compiled engine)
    ({"url": f"{EDGE_URL}/tasks", "method": "get", "params": {"limit": "ten"}}, True),
    ({"url": f"{EDGE_URL}/projects/7/tasks", "method": "get", "params": {"limit": "x"}}, True),
    ({"url": f"{EDGE_URL}/items/7", "method": "get", "headers": {"x-mode": "c", "X-MODE": "a"},
      "params": {"tags": ["1", "b"], "csv": [1, "2.5", "x"], "empty_ok": "", "any": [{"a": 1}], "small": "abc",
                 "when": "2020-13-45", "flag": "maybe"}}, True),
    ({"url": f"{EDGE_URL}/items/seven", "method": "get", "params": {"tags": 5, "csv": "", "must": "ab"}}, True),
    ({"url": f"{EDGE_URL}/items/7", "method": "get", "params": {"flag": "YES", "when": "2020-01-02", "tags": []}},
     True),
    ({"url": f"{EDGE_URL}/items/7", "method": "put", "headers": {"Content-Type": "application/x-www-form-urlencoded"},
      "data": {"name": "n", "count": "3", "flags": ["true", "off"]}}, True),
    ({"url": f"{EDGE_URL}/items/7", "method": "put", "headers": {"Content-Type": "application/x-www-form-urlencoded"},
      "data": {"count": "three"}}, True),
    ({"url": f"{EDGE_URL}/items/7", "method": "put", "headers": {"Content-Type": "application/x-www-form-urlencoded"},
      "data": {"flags": ["yes", "perhaps"]}}, True),
    ({"url": f"{EDGE_URL}/items/7", "method": "put", "data": {"name": 5, "level": 3}}, True),
    ({"url": f"{EDGE_URL}/items/7", "method": "put"}, True),
    ({"url": f"{EDGE_URL}/mixed", "method": "post", "data": {"a": 1}}, True),
    ({"url": f"{EDGE_URL}/nodes", "method": "post", "data": {"id": 1, "children": [{"id": "x"}, {}]}}, True),
    ({"url": f"{EDGE_URL}/text", "method": "post", "headers": {"Content-Type": "text/plain"}, "data": {"b": 1}}, True),
    ({"url": f"{EDGE_URL}/runs/42", "method": "get",
      "params": {"fields": ["a", "b"], "size": "7", "ratio": "0.5", "mode": "abc"}, "headers": {"X-Count": "1"}}, True),
    ({"url": f"{EDGE_URL}/runs/main.yml", "method": "get",
      "params": {"fields": "a,b", "size": "true", "ratio": "x", "mode": "12345"}, "headers": {"X-Count": "yes"}}, True),
    ({"url": f"{EDGE_URL}/runs/-3", "method": "get", "params": {"size": "maybe", "ratio": "2", "mode": "7"},
      "headers": {"X-Count": "three"}}, True),
    ({"url": f"{EDGE_URL}/runs/1", "method": "patch", "headers": {"Content-Type": "application/x-www-form-urlencoded"},
      "data": {"level": "on"}}, True),
    ({"url": f"{EDGE_URL}/runs/1", "method": "patch", "headers": {"Content-Type": "application/x-www-form-urlencoded"},
      "data": {"level": "high"}}, True),
    ({"url": f"{EDGE_URL}/deep", "method": "get", "params": {"filter[a]": "1"}}, False),
    ({"url": f"{EDGE_URL}/content", "method": "get", "params": {"q": '{"a": 1}'}}, False),
    ({"url": f"{EDGE_URL}/upload", "method": "post", "headers": {"Content-Type": "multipart/form-data"},
      "data": {"file": "x", "names": ["a", 2], "blob": "b"}}, True),
    ({"url": f"{EDGE_URL}/upload", "method": "post", "headers": {"Content-Type": "multipart/form-data"},
      "data": {"file": "7"}}, True),
    ({"url": f"{EDGE_URL}/upload", "method": "post", "headers": {"Content-Type": "multipart/form-data"},
      "data": {"meta": {"a": 1}}}, False),
]


def test_edge_cases_are_answered_like_openapi_core_and_the_rest_left_to_it(tmp_path: Path) -> None:
    path = tmp_path / "edge.yaml"
    path.write_text(EDGE_SPEC)
    spec, validator = SpecIndex.load(path), OperationValidator.for_spec(path)
    for request, compiled in EDGE_REQUESTS:
        template = _operation_template(spec, request, strict=False)
        request = {**request, "path_params": spec.path_params(request["url"])}
        reference = validator.validate(request, template, engine="reference")
        if compiled:
            assert validator.validate(request, template, engine="compiled") == reference, request
        else:
            with pytest.raises(NotCompiled):
                validator.validate(request, template, engine="compiled")
        assert validator.validate(request, template) == reference
    # openapi-core checks /projects/{gid}/tasks against /tasks (a literal suffix earlier in the spec, and the
    # second server matches what precedes it): so does wapii
    shadowed = EDGE_REQUESTS[1][0]
    assert [v.where for v in validator.validate({**shadowed, "path_params": {"gid": "7"}},
                                                "/projects/{gid}/tasks")] == ["query parameter 'limit'"]


@needs_wapiibench
def test_the_path_finder_replay_picks_openapi_cores_operation(wapiibench: Dataset, tmp_path: Path) -> None:
    from jsonschema_path import SchemaPath
    from openapi_core.templating.paths.exceptions import PathError
    from openapi_core.templating.paths.finders import APICallPathFinder

    from wapii_core.openapi.path_finder import find, request_url
    from wapii_core.openapi.openapi_core_engine import json_aliased

    edge = tmp_path / "edge.yaml"
    edge.write_text(EDGE_SPEC)
    shadowed = 0
    for path in [*wapiibench.specs.values(), *load_demo().specs.values(), edge]:
        validator = OperationValidator.for_spec(path)
        compiled = validator._engine("compiled")
        finder = APICallPathFinder(SchemaPath.from_dict(json_aliased(validator.document)))
        spec = SpecIndex.load(path)
        for template in spec.templates:
            for method in sorted(spec.methods(template)):
                url = request_url(validator.server, template)
                try:
                    result = finder.find(method, url)
                    expected = (result.path_result.pattern, result.path_result.variables)
                except PathError:
                    expected = None
                found = find(validator.document, compiled.deref, method, url)
                assert (found and (found.template, found.variables)) == expected, (path.name, method, template)
                shadowed += found is not None and found.template != template
    assert shadowed >= 1  # the edge spec's /projects/{gid}/tasks, at least


def test_json_aliasing_copies_only_what_it_changes(tmp_path: Path) -> None:
    """openapi-core's copy of a spec gives every non-JSON request body a JSON alias, reached through
    ``$ref`` chains too, and leaves the shared parsed document as it was (copy on write)."""
    from wapii_core.openapi.parsing import read_document
    from wapii_core.openapi.openapi_core_engine import aliased_contents, json_aliased

    spec = tmp_path / "forms.yaml"
    spec.write_text(
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\nservers: [{url: 'https://h'}]\npaths:\n"
        "  /a:\n    post:\n      requestBody: {$ref: '#/components/requestBodies/Hop'}\n"
        "      responses: {'200': {description: ok}}\n"
        "  /b:\n    put:\n      requestBody:\n        content:\n          application/x-www-form-urlencoded:\n"
        "            schema: {type: object, properties: {x: {type: integer}}}\n"
        "      responses: {'200': {description: ok}}\n"
        "  /c:\n    patch:\n      requestBody:\n        content:\n          application/json:\n"
        "            schema: {type: object}\n      responses: {'200': {description: ok}}\n"
        "components:\n  requestBodies:\n    Hop: {$ref: '#/components/requestBodies/Form'}\n"
        "    Form:\n      content:\n        multipart/form-data:\n          schema: {type: object}\n")
    document = read_document(spec).data
    before = copy.deepcopy(document)
    expected = copy.deepcopy(document)
    for content in aliased_contents(expected):
        content["application/json"] = next(iter(content.values()))
    patched = json_aliased(document)
    assert document == before
    assert patched == expected
    assert patched["paths"]["/c"] is document["paths"]["/c"]  # untouched parts are shared, not copied
    form = patched["components"]["requestBodies"]["Form"]["content"]
    assert list(form) == ["multipart/form-data", "application/json"]
    assert list(patched["paths"]["/b"]["put"]["requestBody"]["content"]) == [
        "application/x-www-form-urlencoded", "application/json"]
