"""How the oracle's workflow programs read ``{{N.path}}`` references (wapii_core.generation.workflow_source,
with the JavaScript and Python expression writers): a string that is exactly one reference keeps the
value's type, any other is spliced as text, and hostile keys and texts stay data. The JavaScript
expressions are evaluated by real Node, the Python ones by Python."""

from __future__ import annotations

import json
import subprocess

import pytest

from support import skip_without_node
from wapii_core.generation.workflow_source import (AnswerRef, reference_parts, referenced_answers, substitute,
                                                   with_tokens)
from wapii_core.pyhttp.pyliteral import py_literal, py_string
from wapii_core.pyhttp.workflow import py_reference
from wapii_core.sandbox.node.workflow import extract_js_program, js_reference

ANSWERS = {"answer0": {"data": [{"gid": "120", "n": 7, "ok": False}], "a'b\\`$x\"": "odd"},
           "answer1": {"data": {"gid": "121", "tags": ["x", "y"]}}}
CASES = [
    ("{{0.data.0.gid}}", "120"),
    ("{{0.data.0.n}}", 7),
    ("{{0.data.0.ok}}", False),
    ("{{1.data.tags}}", ["x", "y"]),
    ("https://h/tasks/{{1.data.gid}}/stories", "https://h/tasks/121/stories"),
    ("{{0.data.0.gid}}-{{1.data.gid}}", "120-121"),
    ("count {{0.data.0.n}}", "count 7"),
    ("quote ' \" ` ${no} {braces} \\ {{1.data.gid}}", "quote ' \" ` ${no} {braces} \\ 121"),
    ("{{0.a'b\\`$x\"}}", "odd"),
    ("key: {{0.a'b\\`$x\"}}!", "key: odd!"),
]


def test_parts_split_texts_and_references() -> None:
    assert reference_parts("a/{{1.data.0.gid}}/b") == ["a/", AnswerRef(1, ("data", 0, "gid")), "/b"]
    with pytest.raises(ValueError, match="setup call's answer"):  # the core gives the oracle setup values as literals
        reference_parts("no reference {{s0.data.gid}}")
    assert referenced_answers([{"url": "u/{{0.x}}", "data": {"k": ["{{2.y}}"]}, "headers": {"H": "{{1.z}}"}}]) == {0, 1, 2}


@pytest.mark.parametrize("text, value", CASES)
def test_python_reads_each_reference_as_the_contract_says(text: str, value) -> None:
    expression = py_reference(reference_parts(text))
    assert eval(expression, {}, json.loads(json.dumps(ANSWERS))) == value  # noqa: S307 (our own expression)


def test_javascript_reads_each_reference_as_the_contract_says() -> None:
    skip_without_node()
    script = "".join(f"const {name} = {json.dumps(value)};\n" for name, value in ANSWERS.items())
    script += "console.log(JSON.stringify([" + ", ".join(js_reference(reference_parts(text)) for text, _ in CASES) + "]));\n"
    done = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [value for _, value in CASES]


def test_tokens_stand_for_strings_with_references_and_are_replaced_where_written() -> None:
    call = {"url": "https://h/t/{{0.id}}", "method": "post", "headers": {"X": "plain"},
            "params": {"q": "{{0.q}}"}, "data": {"a": [{"b": "{{1.n}}"}], "c": "text"}}
    config, tokens = with_tokens(call, 2)
    assert config["headers"] == {"X": "plain"} and config["data"]["c"] == "text"
    assert len(tokens) == 3 and config["data"]["a"][0]["b"] in tokens
    source = substitute(py_literal(config), tokens, py_string, py_reference)
    assert "__wapii" not in source and "answer1['n']" in source and "f'https://h/t/{answer0[\"id\"]}'" in source


def test_a_header_that_is_one_reference_is_sent_as_text() -> None:
    """Headers are text on the wire (requests refuses an int header value): a number read from an answer
    goes as its text, where a body value keeps its type."""
    config, tokens = with_tokens({"url": "u", "method": "get", "headers": {"X-Id": "{{0.data.0.n}}"},
                                  "data": {"n": "{{0.data.0.n}}"}}, 1)
    source = substitute(py_literal({"headers": config["headers"], "data": config["data"]}), tokens, py_string, py_reference)
    assert eval(source, {}, json.loads(json.dumps(ANSWERS))) == {"headers": {"X-Id": "7"}, "data": {"n": 7}}  # noqa: S307


def test_a_reference_to_a_later_call_or_inside_a_longer_text_is_refused() -> None:
    with pytest.raises(ValueError, match="comes later"):
        with_tokens({"url": "https://h/{{1.id}}", "method": "get"}, 1)
    config, tokens = with_tokens({"url": "https://h/{{0.id}}", "method": "get"}, 1)
    with pytest.raises(ValueError, match="whole string"):
        substitute("fetch('" + config["url"] + "?x=1')", tokens, py_string, py_reference)
    with pytest.raises(ValueError, match="reserved"):
        with_tokens({"url": "https://h/__wapii_reference_0__", "method": "get"}, 0)


def test_the_javascript_program_is_cut_at_the_fence_and_gets_a_scope_of_its_own() -> None:
    code = "// task\nconst axios = require('axios');\naxios.get('u');\n```\nprose\n"
    extraction = extract_js_program(code, "axios.")
    assert extraction.call == "(async () => {\n// task\nconst axios = require('axios');\naxios.get('u');\n})();\n"
    assert extraction.span == (0, code.index("```"))
    assert extract_js_program("// task\nconsole.log(1);\n", "axios.").error == "no_request"
    assert extract_js_program("// task\naxios.get(//timeout", "axios.").error == "timeout"


def test_static_imports_become_the_requires_they_stand_for() -> None:
    from wapii_core.sandbox.node.workflow import requires_for_imports

    code = ("import axios from 'axios';\nimport * as fs from \"fs\"\n  import { a, b as c } from 'x';\n"
            "const s = 'import x from y';\nimportant();\n")
    assert requires_for_imports(code) == ("const axios = require('axios');\nconst fs = require(\"fs\");\n"
                                          "  const { a, b: c } = require('x');\nconst s = 'import x from y';\nimportant();\n")
