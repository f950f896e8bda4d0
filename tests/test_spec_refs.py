"""The one ``$ref`` resolver: the rules it follows, what it refuses, and that every reader agrees with openapi-core."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from wapii_core.openapi.parsing import read_document
from wapii_core.openapi.request_validation import NotCompiled, OperationValidator
from wapii_core.openapi.index import SpecIndex
from wapii_core.openapi.refs import RefError, Resolver

DOC = {
    "components": {
        "schemas": {
            "Pet": {"type": "object", "properties": {"name": {"type": "string"}, "tags": {"type": "array"}}},
            "Alias": {"$ref": "#/components/schemas/Pet"},
            "Loop": {"$ref": "#/components/schemas/Loop"},
            "Ping": {"$ref": "#/components/schemas/Pong"},
            "Pong": {"$ref": "#/components/schemas/Ping"},
            "Through": {"$ref": "#/components/schemas/Alias/properties/name"},
            "Away": {"$ref": "other.yaml#/components/schemas/Pet"},
        },
        "parameters": {"List": [{"name": "a", "in": "query"}, {"name": "b", "in": "query"}]},
    },
    "paths": {"/pets/{id}": {"get": {"summary": "one pet"}}},
}


def test_chains_are_followed_and_their_siblings_ignored() -> None:
    resolve = Resolver(DOC, "api.yaml")
    pet = DOC["components"]["schemas"]["Pet"]
    assert resolve({"$ref": "#/components/schemas/Alias", "description": "ignored"}) is pet
    assert resolve(pet) is pet and resolve(3) == 3 and resolve(None) is None
    assert resolve({"$ref": "#"}) is DOC


def test_a_reference_on_the_way_to_a_pointer_is_followed_and_located_where_it_can_be_walked() -> None:
    resolve = Resolver(DOC, "api.yaml")
    name = DOC["components"]["schemas"]["Pet"]["properties"]["name"]
    assert resolve({"$ref": "#/components/schemas/Through"}) is name
    node, location = resolve.located({"$ref": "#/components/schemas/Alias/properties/name"}, ("x",))
    assert node is name and location == ("components", "schemas", "Pet", "properties", "name")
    assert resolve.located({"type": "string"}, ("a", 1)) == ({"type": "string"}, ("a", 1))
    item, at = resolve.located({"$ref": "#/components/parameters/List/1"}, ())
    assert item == {"name": "b", "in": "query"} and at == ("components", "parameters", "List", 1)
    with pytest.raises(RefError, match="points nowhere"):  # as openapi-core (referencing) reads such a pointer
        Resolver(DOC, "api.yaml", through=False)({"$ref": "#/components/schemas/Through"})
    assert Resolver(DOC, "api.yaml", through=False)({"$ref": "#/components/schemas/Alias"}) is \
        DOC["components"]["schemas"]["Pet"]


def test_pointers_are_percent_decoded_then_unescaped() -> None:
    resolve = Resolver(DOC, "api.yaml")
    assert resolve({"$ref": "#/paths/~1pets~1%7Bid%7D/get"}) == {"summary": "one pet"}
    assert resolve({"$ref": "#/paths/~1pets~1{id}/get"}) == {"summary": "one pet"}


@pytest.mark.parametrize(("ref", "problem"), [
    ("#/components/schemas/Loop", "circular $ref '#/components/schemas/Loop'"),
    ("#/components/schemas/Ping", "circular $ref"),
    ("#/components/schemas/Nope", "$ref '#/components/schemas/Nope' points nowhere"),
    ("#/components/parameters/List/2", "points nowhere"),
    ("#/components/schemas/Away", "unsupported $ref 'other.yaml#/components/schemas/Pet'"),
    ("https://example.com/spec.yaml#/a", "bundle the description into one file first"),
])
def test_what_cannot_be_followed_is_an_error_or_nothing_when_lenient(ref: str, problem: str) -> None:
    with pytest.raises(RefError) as info:
        Resolver(DOC, "api.yaml")({"$ref": ref})
    assert str(info.value).startswith("api.yaml: ") and problem in str(info.value) and "\n" not in str(info.value)
    lenient = Resolver(DOC, "api.yaml", lenient=True)
    assert lenient({"$ref": ref}) == {}
    assert lenient.located({"$ref": ref}, ("here",)) == ({}, ("here",))


SPEC = """\
    openapi: 3.0.3
    info: {title: refs, version: "1"}
    servers: [{url: "https://refs.example/v1"}]
    components:
      schemas:
        Pet:
          type: object
          required: [name]
          properties:
            name: {type: string}
            age: {type: integer, minimum: 0}
      requestBodies:
        NewPet:
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
    paths:
      /pets/{id}:
        parameters:
          - {name: id, in: path, required: true, schema: {type: integer}}
        get:
          parameters:
            - {name: limit, in: query, schema: {type: integer, maximum: 10}}
      /pets:
        post:
          requestBody: {$ref: '#/components/requestBodies/NewPet'}
        put:
          parameters:
            - $ref: '#/paths/~1pets~1%7Bid%7D/get/parameters/0'
        patch:
          requestBody:
            content:
              application/json:
                schema: {$ref: '#/components/requestBodies/NewPet/content/application~1json/schema/properties/age'}
"""


@pytest.fixture()
def refs_spec(tmp_path: Path) -> Path:
    path = tmp_path / "refs.yaml"
    path.write_text(textwrap.dedent(SPEC))
    return path


@pytest.mark.parametrize("config", [
    {"method": "post", "data": {"name": "Rex", "age": 3}},
    {"method": "post", "data": {"age": -1}},
    {"method": "post", "data": {"name": 5}},
    {"method": "put", "params": {"limit": 11}},
    {"method": "put", "params": {"limit": "x"}},
    {"method": "put", "params": {"limit": 2}},
])
def test_both_engines_follow_references_as_openapi_core_does(refs_spec: Path, config: dict) -> None:
    validator = OperationValidator.for_spec(refs_spec)
    reference = validator.validate(config, "/pets", engine="reference")
    assert validator.validate(config, "/pets", engine="compiled") == reference
    assert not any("could not be validated" in str(v) for v in reference)
    assert bool(reference) == (config not in ({"method": "post", "data": {"name": "Rex", "age": 3}},
                                              {"method": "put", "params": {"limit": 2}}))


def test_a_pointer_through_a_reference_is_judged_as_openapi_core_judges_it(refs_spec: Path) -> None:
    """openapi-core cannot follow it (the compiled engine leaves it to openapi-core); the index can."""
    validator = OperationValidator.for_spec(refs_spec)
    config = {"method": "patch", "data": 4}
    found = validator.validate(config, "/pets")
    assert found == validator.validate(config, "/pets", engine="reference")
    assert [v.kind for v in found] == ["other"] and "does not exist" in found[0].message
    with pytest.raises(NotCompiled):
        validator.validate(config, "/pets", engine="compiled")
    index = SpecIndex.load(refs_spec)
    assert index.is_legal("limit", "params", "put", "/pets") and not index.is_legal("id", "params", "put", "/pets")
    assert Resolver(read_document(refs_spec).data, refs_spec)(
        {"$ref": "#/components/requestBodies/NewPet/content/application~1json/schema/properties/age"}) == \
        {"type": "integer", "minimum": 0}


@pytest.mark.slow
def test_a_spec_referring_to_another_file_is_refused_in_one_line_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "split.json"
    path.write_text(json.dumps({
        "openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "servers": [{"url": "https://split.example"}],
        "paths": {"/a": {"get": {"parameters": [{"$ref": "parameters.yaml#/Limit"}]}}}}))
    result = subprocess.run([sys.executable, "-m", "wapii_core", "datasets", "scaffold", "--spec", str(path),
                             "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines() == [
        f"error: {path}: unsupported $ref 'parameters.yaml#/Limit': only references inside the document are "
        "followed (bundle the description into one file first)"]
    assert not (tmp_path / "out").exists()
