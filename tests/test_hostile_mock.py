"""Hostile specs and hostile programs against the mock: a reference cycle, an alias bomb and a fan-out
of ``$ref``s give small answers; a spec with too many paths is a one-line error (exit code 2); a
program that floods the store, sends a huge or deeply nested body gets a bounded failure of that
request and the store stays as it was bounded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import REPO, run_cli_in_process

SERVER = "https://hostile.example/api"
HEADER = f"""openapi: 3.0.3
info: {{title: Hostile, version: '1'}}
servers: [{{url: '{SERVER}'}}]
"""
MAX_ANSWER = 1 << 20
"""Bytes an answer to a hostile spec may have at most (a bounded answer; the bombs below expand to gigabytes)."""


def _answer(spec: Path, method: str, path: str, body: object = None):
    from wapii_core.mock.spec_mock import SpecMock, config_request

    responder = SpecMock.load(spec).responder(open_world=True)
    return responder.answer(config_request({"url": SERVER + path, "method": method, "data": body}))


def test_a_reference_cycle_gives_a_small_answer(tmp_path: Path) -> None:
    spec = tmp_path / "cycle.yaml"
    spec.write_text(HEADER + """paths:
  /nodes/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {content: {application/json: {schema: {$ref: '#/components/schemas/Node'}}}}
  /loops:
    get:
      responses:
        '200': {content: {application/json: {schema: {$ref: '#/components/schemas/A'}}}}
components:
  schemas:
    Node:
      type: object
      required: [id, child, children]
      properties:
        id: {type: string}
        child: {$ref: '#/components/schemas/Node'}
        children: {type: array, minItems: 1, items: {$ref: '#/components/schemas/Node'}}
    A: {$ref: '#/components/schemas/B'}
    B: {$ref: '#/components/schemas/A'}
""")
    node = _answer(spec, "get", "/nodes/n1")
    assert node.status == 200 and len(node.body) < MAX_ANSWER
    assert json.loads(node.body)["id"] == "n1"
    loop = _answer(spec, "get", "/loops")
    assert loop.status == 200 and len(loop.body) < MAX_ANSWER


def test_an_alias_bomb_and_a_ref_fan_out_give_small_answers(tmp_path: Path) -> None:
    """A 100,000-value enum member and example from a 1 KB file (the spec cache's own node bound,
    ``tagged_json.dumps``, stops larger bombs at 20 million values), and ten levels of ten ``$ref``s
    (ten billion values if expanded)."""
    levels = ["  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    levels += [f"  l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 10)}]" for i in range(1, 5)]
    fan = "\n".join(f"    F{i}:\n      type: object\n      properties:\n" + "".join(
        f"        p{j}: {{$ref: '#/components/schemas/F{i + 1}'}}\n" for j in range(10)) for i in range(9))
    spec = tmp_path / "bomb.yaml"
    spec.write_text(HEADER + "x-bombs:\n" + "\n".join(levels) + """
paths:
  /bomb:
    get:
      responses:
        '200':
          content:
            application/json:
              schema:
                type: object
                properties:
                  kind: {enum: [*l4, *l3]}
                  tree: {$ref: '#/components/schemas/F0'}
              example: {kind: *l4}
components:
  schemas:
""" + fan + "\n    F9: {type: string}\n")
    bomb = _answer(spec, "get", "/bomb")
    assert bomb.status == 200 and len(bomb.body) < MAX_ANSWER
    assert not isinstance(json.loads(bomb.body)["kind"], list)  # no enum member, nor the example, taken


def test_too_many_paths_is_a_one_line_error(tmp_path: Path) -> None:
    from wapii_core.mock.spec_mock import MAX_PATHS

    spec = tmp_path / "paths.json"
    paths = {f"/p{i}": {"get": {"responses": {"200": {"description": "ok"}}}} for i in range(MAX_PATHS + 1)}
    spec.write_text(json.dumps({"openapi": "3.0.3", "info": {"title": "Many", "version": "1"},
                                "servers": [{"url": SERVER}], "paths": paths}))
    done = run_cli_in_process("mock", str(spec), cwd=REPO)
    assert done.returncode == 2
    assert done.stderr.strip() == f"error: {spec}: has {MAX_PATHS + 1} paths; the mock derives from at most {MAX_PATHS}"


TOKEN = {"Authorization": "Bearer <token>"}
DEMO_SERVER = "https://api.larchwood-library.example/v2"


def _book(responder, title: str):
    from wapii_core.mock.spec_mock import config_request

    return responder.answer(config_request({"url": DEMO_SERVER + "/books", "method": "post", "headers": TOKEN,
                                            "data": {"title": title, "contributors": [{"name": "X"}]}}))


def test_a_program_flooding_the_store_is_refused_past_its_bound() -> None:
    from wapii_core.mock.spec_mock import SpecMock
    from wapii_core.mock.store import MAX_OBJECTS, Store

    responder = SpecMock.load(REPO / "specs" / "demo" / "specs" / "larchwood.yaml").responder()
    assert responder.store.max_objects == MAX_OBJECTS
    bound = 40
    responder.store = Store(max_objects=bound)  # the same mechanism, a bound a test reaches in a moment
    statuses = [_book(responder, f"b{i}").status for i in range(bound + 3)]
    assert statuses == [201] * bound + [507] * 3
    assert len(responder.state()["collections"]["books"]) == bound
    full = _book(responder, "one more")
    assert json.loads(full.body)["error"]["message"].startswith("the store is full")


def test_huge_and_deeply_nested_bodies_are_refused() -> None:
    from wapii_core.mock.exchange import MockRequest
    from wapii_core.mock.incoming import MAX_BODY
    from wapii_core.mock.spec_mock import SpecMock
    from wapii_core.mock.store import MAX_OBJECT_BYTES

    responder = SpecMock.load(REPO / "specs" / "demo" / "specs" / "larchwood.yaml").responder()
    headers = (("Authorization", "Bearer <token>"), ("Content-Type", "application/json"))
    huge = responder.answer(MockRequest("POST", DEMO_SERVER + "/books", headers, b" " * (MAX_BODY + 1)))
    assert huge.status == 413
    deep = responder.answer(MockRequest("POST", DEMO_SERVER + "/books", headers, b"[" * 100_000 + b"]" * 100_000))
    assert deep.status == 400
    big = _book(responder, "x" * (MAX_OBJECT_BYTES + 1))
    assert big.status == 507
    assert responder.state() == {"collections": {}, "links": {}}


@pytest.mark.parametrize("body", [b"{", b"\xff\xfe", b'{"title": NaN}'])
def test_a_body_that_is_not_json_is_a_400(body: bytes) -> None:
    from wapii_core.mock.exchange import MockRequest
    from wapii_core.mock.spec_mock import SpecMock

    responder = SpecMock.load(REPO / "specs" / "demo" / "specs" / "larchwood.yaml").responder()
    headers = (("Authorization", "Bearer <token>"), ("Content-Type", "application/json"))
    answer = responder.answer(MockRequest("POST", DEMO_SERVER + "/books", headers, body))
    assert answer.status == 400
