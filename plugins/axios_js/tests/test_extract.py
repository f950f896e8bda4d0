"""Extraction of the first axios call (metrics.md §2), without Node."""

from __future__ import annotations

import pytest

from wapii_axios_js.extract import TIMEOUT_MARKER, UNSATISFIABLE_MARKER, extract_call

HEAD = "// Do something.\nconst axios = require('axios');\n\n"


def call(code: str) -> str | None:
    return extract_call(code).call


def error(code: str) -> str | None:
    return extract_call(code).error


@pytest.mark.parametrize(
    ("completion", "expected"),
    [
        # .then / .catch / .finally are cut off and replaced by ";\n"
        ("axios.get('u', {a: 1}).then(r => console.log(r));", "axios.get('u', {a: 1});\n"),
        ("axios.get('u').catch(e => 1);", "axios.get('u');\n"),
        ("axios.get('u').finally(() => 1);", "axios.get('u');\n"),
        # the other markers are kept, followed by a newline
        ("axios.post('u', {\n  a: 1,\n});\nconsole.log(1);", "axios.post('u', {\n  a: 1,\n});\n"),
        ("axios.post('u', {a: 1}\n);\nfoo();", "axios.post('u', {a: 1}\n);\n"),
        ("axios.get('u');\nfoo();", "axios.get('u');\n"),
        ("axios.get('u')\nfoo;", "axios.get('u')\nfoo;\n"),
        # a second call or the end of the code fence cut without replacement
        ("axios.get('u')\naxios.get('v')", "axios.get('u')"),
        ("axios.get('u')\n```\nSome text", "axios.get('u')\n"),
    ],
)
def test_markers_and_replacements(completion: str, expected: str) -> None:
    assert call(HEAD + completion) == expected


def test_priority_is_list_order_not_position() -> None:
    # `);` comes first in the text, but `.then` has priority wherever it is
    code = HEAD + "axios.get('u');\nfoo();\nbar().then(x => x);"
    assert call(code) == "axios.get('u');\nfoo();\nbar();\n"
    # `});` beats an earlier `);`
    code = HEAD + "axios.get(f(1), {a: 1});"
    assert call(code) == "axios.get(f(1), {a: 1});\n"
    code = HEAD + "axios.get(f(1));\nx({y: 2});"
    assert call(code) == "axios.get(f(1));\nx({y: 2});\n"
    # `;` beats `\naxios.`
    code = HEAD + "axios.get('u')\naxios.get('v');"
    assert call(code) == "axios.get('u')\naxios.get('v');\n"


def test_markers_are_searched_after_the_call_start() -> None:
    code = "fetch().then(x => x);\n" + HEAD + "axios.get('u');"
    assert call(code) == "axios.get('u');\n"


def test_await_and_async_wrappers_are_dropped() -> None:
    code = HEAD + "(async () => {\n  const response = await axios.get('u', {params: {a: 1}});\n  console.log(response.data);\n})();\n"
    assert call(code) == "axios.get('u', {params: {a: 1}});\n"


def test_then_wrapper() -> None:
    code = HEAD + "axios.post('u', {a: 1}, {headers: {h: 'v'}}).then(response => {\n  console.log(response.data);\n}).catch(error => {\n  console.error(error);\n});\n"
    assert call(code) == "axios.post('u', {a: 1}, {headers: {h: 'v'}});\n"


def test_full_setup_starter_is_continued() -> None:
    assert call(HEAD + "axios." + "get('u');\n") == "axios.get('u');\n"


def test_no_call() -> None:
    assert error(HEAD + "// I am not sure how to do this.\n") == "no_request"
    assert error("") == "no_request"
    assert error("const x = require('axios');\nx.get('u');") == "no_request"


def test_truncated_call_is_incomplete() -> None:
    assert error(HEAD + "axios.get('u', {\n  headers: {\n    Authorization: 'Bearer") == "incomplete_request"
    assert error(HEAD + "axios.") == "incomplete_request"


def test_stopped_constrained_generations() -> None:
    assert error(HEAD + "axios.get('u');\n" + TIMEOUT_MARKER) == "timeout"
    assert error(HEAD + "axios.get('u'" + UNSATISFIABLE_MARKER) == "unsatisfiable"
    assert error(HEAD + "axios.get('u'//unsatisfiable") == "unsatisfiable"
    # only at the very end
    assert call(HEAD + "axios.get('u', {timeout: 1});\n// timeout\n") == "axios.get('u', {timeout: 1});\n"


def test_call_text_is_kept_verbatim() -> None:
    completion = "axios..post('u', {\"data\": {\"a\": \"b\"}}, {\"headers\": {\"Authorization\": \"Bearer <token>\"}});"
    assert call(HEAD + completion) == completion + "\n"
