"""The grammar core: schema reduction, key sets, endpoints with security, the engine, caching."""

from __future__ import annotations

import json

import pytest

from support import WAPIIBENCH
from wapii_core.grammar import Constraint, accepts, cached, get_engine
import wapii_core.grammar.constraint as constraint_module
from wapii_core.grammar.endpoints import load_api
from wapii_core.grammar.lark import Entry, LarkWriter, literal
from wapii_core.grammar.types import (ANY, BOOLEAN, INTEGER, NULL, STRING, Arr, Int, Notes, Obj, OneOf, Prop, Str,
                                      value_type)
from wapii_core.openapi.index import SpecIndex

PETSTORE = WAPIIBENCH / "grammar-cases" / "petstore-expanded-modified.yaml"


def reduce(schema: dict, resolve=lambda node: node) -> tuple[object, list[str]]:
    notes = Notes()
    return value_type(schema, resolve, notes, "x"), notes.items


def test_schemas_reduce_to_value_types_and_only_ever_loosen():
    assert reduce({"type": "string", "pattern": "^a$", "maxLength": 3})[0] == STRING
    assert reduce({"type": "integer", "minimum": 5})[0] == INTEGER
    assert reduce({"enum": ["a", "b", None]})[0] == OneOf((Str(("a", "b")), NULL))
    assert reduce({"type": "integer", "enum": [1, 2]})[0] == Int((1, 2))
    assert reduce({"type": "string", "nullable": True})[0] == OneOf((STRING, NULL))
    assert reduce({"type": ["boolean", "null"]})[0] == OneOf((BOOLEAN, NULL))
    assert reduce({"description": "no type"})[0] == ANY
    assert reduce({"type": "array"})[0] == Arr(ANY)
    assert reduce({"anyOf": [{"type": "string"}, {}]})[0] == ANY
    closed = reduce({"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}, "b": {}}})[0]
    assert closed == Obj((Prop("a", STRING, True), Prop("b", ANY)), extra=None)
    assert reduce({"type": "object"})[0] == Obj((), extra=ANY)  # free-form: any keys
    assert reduce({"type": "object", "additionalProperties": False})[0] == Obj((), extra=None)
    merged = reduce({"allOf": [{"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}},
                               {"properties": {"b": {"type": "boolean"}}}]})[0]
    assert merged == Obj((Prop("a", STRING, True), Prop("b", BOOLEAN)), extra=None)


def test_what_cannot_be_expressed_falls_back_to_a_looser_rule_with_a_note():
    deep: dict = {"type": "string"}
    for _ in range(10):
        deep = {"type": "object", "properties": {"x": deep}}
    kind, notes = reduce(deep)
    assert any("nested deeper" in n for n in notes)
    inner = kind
    while isinstance(inner, Obj):
        inner = inner.props[0].type
    assert inner == ANY
    wide, notes = reduce({"type": "object", "required": ["p0"],
                          "properties": {f"p{i}": {"type": "string"} for i in range(70)}})
    assert wide.unique is False and any("70 properties" in n for n in notes)


def members_grammar(entries: list[Entry], nonempty: bool = False) -> str:
    w = LarkWriter()
    value = w.define("value", literal("v"))
    entries = [Entry(w.shared_terminal(f"{e.key}:", "KEY"), value, e.required) for e in entries]
    return w.text(f'"{{" WS? {w.members(entries, nonempty=nonempty)} WS? "}}"')


def test_keys_in_any_order_each_at_most_once_required_ones_present():
    grammar = members_grammar([Entry("a", "", True), Entry("b", ""), Entry("c", "", True)])
    for text in ("{a:v,c:v}", "{c:v, a:v}", "{ b:v, c:v, a:v, }", "{a:v,b:v,c:v}"):
        assert accepts(grammar, text, complete_call=False), text
    for text in ("{a:v}", "{}", "{a:v,a:v,c:v}", "{a:v,c:v,b:v,b:v}", "{a:v c:v}", "{,a:v,c:v}"):
        assert not accepts(grammar, text, complete_call=False), text
    optional = members_grammar([Entry("a", ""), Entry("b", "")], nonempty=True)
    assert accepts(optional, "{b:v}", complete_call=False)
    assert not accepts(optional, "{}", complete_call=False)


def test_more_than_64_keys_fall_back_to_any_order_with_repeats():
    grammar = members_grammar([Entry(f"k{i}", "", True) for i in range(70)])
    assert accepts(grammar, "{k3:v, k3:v}", complete_call=False)
    assert accepts(grammar, "{}", complete_call=False)


def test_an_invalid_grammar_is_a_value_error():
    engine = get_engine()
    with pytest.raises(ValueError, match="invalid grammar"):
        engine.compile("start: undefined_rule\n", engine.byte_tokenizer())


def endpoint(api, method: str, template: str):
    return next(e for e in api.endpoints if e.method == method and e.template == template)


def test_endpoints_carry_typed_legal_arguments_and_their_security():
    api = load_api(SpecIndex.load(PETSTORE))
    assert api.server == "https://petstore.swagger.io/v2"
    pets = endpoint(api, "get", "/pets")
    assert [(a.name, a.type, a.required) for a in pets.query] == [("tags", Arr(STRING), False),
                                                                  ("limit", INTEGER, False)]
    assert endpoint(api, "get", "/pets/{id}").path_params == (("id", INTEGER),)
    bearer = endpoint(api, "get", "/pets-secure/{id}")  # one scheme: its credential is required
    assert [(a.name, a.required) for a in bearer.headers] == [("Authorization", True), ("Accept", False)]
    either = endpoint(api, "put", "/pets-secure/{id}")  # apiKey or basic: both allowed, neither required
    assert [(a.name, a.required) for a in either.query] == [("api_key", False)]
    assert ("Authorization", False) in [(a.name, a.required) for a in either.headers]
    assert "Content-Type" in [a.name for a in either.headers] and "Content-Type" not in [a.name for a in bearer.headers]
    assert endpoint(api, "delete", "/pets-secure/{id}").query[0].required
    food = endpoint(api, "post", "/foods")
    assert food.body_required and isinstance(food.body, Obj)
    assert [p.name for p in food.body.props] == ["name", "nutrition"]
    assert endpoint(api, "post", "/customers/{name}/ping").body is None


def test_scopes_named_none_need_no_credential():
    api = load_api(SpecIndex.load(WAPIIBENCH / "specs" / "slack.yaml"))
    token = endpoint(api, "post", "/oauth.v2.access")
    assert [a for a in token.headers if a.name == "Authorization"][0].required is False
    assert [a for a in token.query if a.name == "code"][0].required is True
    post = endpoint(api, "post", "/chat.postMessage")
    assert [a for a in post.headers if a.name == "Authorization"][0].required is True


def test_constraints_are_cached_per_spec_adapter_and_setup(tmp_path, monkeypatch):
    monkeypatch.setenv("WAPII_CACHE_DIR", str(tmp_path))
    built = []

    def build() -> Constraint:
        built.append(1)
        return Constraint('start: "x"\n', "a.", "test", ("note",))

    first = cached("test", 1, "f" * 64, "call", build)
    assert cached("test", 1, "f" * 64, "call", build) is first and len(built) == 1
    entry = tmp_path / "grammars" / f"test-v1-call-{'f' * 64}.json"
    header, data = entry.read_text().split("\n", 1)
    stored = json.loads(data)
    assert stored["grammar"] == first.grammar and stored["notes"] == ["note"]
    assert json.loads(header)["key"] == f"test-v1-call-{'f' * 64}" and entry.stat().st_mode & 0o077 == 0
    entry.chmod(0o666)  # writable by others: not trusted, rebuilt
    built.clear()
    constraint_module._memo.clear()  # as a new process: the disk cache alone
    cached("test", 1, "f" * 64, "call", build)
    assert len(built) == 1
    cached("test", 2, "f" * 64, "call", build)
    cached("test", 1, "f" * 64, "import", build)
    assert len(built) == 3


def test_the_prefix_is_what_the_starter_holds_after_its_last_anchor():
    c = Constraint("", "axios.", "axios_js")
    assert c.prefix("x\naxios.") == ""
    assert c.prefix("require('axios');\naxios.get('u',") == "get('u',"
    assert c.prefix("const axios = require('axios');\n") == ""
    assert c.prefix("axios.get('https://x.org/axios.list',") == "get('https://x.org/axios.list',"
    assert c.prefix("// see axios.get\nx") == ""


def test_body_keys_are_only_the_top_level_properties_the_judge_counts_legal(tmp_path):
    """The keys of ``oneOf`` alternatives and of an untyped body are illegal for the judge (it
    counts only top-level ``properties``), so the grammar offers none of them."""
    alternatives = {"oneOf": [{"type": "object", "required": ["ids"], "properties": {"ids": {"type": "array"}}},
                              {"type": "object", "properties": {"digests": {"type": "array"}}}]}
    nested = {"type": "object", "properties": {"name": {"type": "string"}, "spec": alternatives}}
    spec = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "servers": [{"url": "https://x.test"}],
            "paths": {f"/{name}": {"post": {"requestBody": {"required": True, "content": {"application/json": {
                "schema": schema}}}, "responses": {"200": {"description": "ok"}}}}
                      for name, schema in (("one-of", alternatives), ("untyped", {}), ("nested", nested))}}
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    api = load_api(SpecIndex.load(path))
    assert endpoint(api, "post", "/one-of").body == Obj()
    untyped = endpoint(api, "post", "/untyped").body
    assert isinstance(untyped, OneOf) and Obj() in untyped.options
    assert not any(isinstance(o, Obj) and (o.props or o.extra) for o in untyped.options)
    inner = endpoint(api, "post", "/nested").body
    assert [p.name for p in inner.props] == ["name", "spec"]  # keys below the top level are the schema's
    assert any("/one-of" in note and "body keys limited" in note for note in api.notes)
