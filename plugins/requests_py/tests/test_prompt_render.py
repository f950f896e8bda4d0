"""Prompts, starter codes and the oracle's programs of the Python adapters."""

from __future__ import annotations

import pytest

from wapii_core.api import Sample, Setup
from wapii_core.testing import CALL_SETUPS, load_dataset
from wapii_requests_py.libraries import HTTPX, LIBRARIES, REQUESTS
from wapii_requests_py.prompt import build_prompt, starter_code
from wapii_requests_py.render import render_call, render_program

SAMPLE = Sample(api="larchwood", index=0, task="Find books.\nOnly mysteries.", config={
    "url": "https://a.example/books", "method": "get", "headers": {"X-Api-Key": "<key>"},
    "params": {"available": True, "limit": 10.0, "tags": ["a", "b"]}})


def test_starters_per_setup() -> None:
    head = "# Find books.\n# Only mysteries.\nimport requests\n"
    assert starter_code(REQUESTS, SAMPLE, Setup.imports) == head
    assert starter_code(REQUESTS, SAMPLE, Setup.full) == head + "\nrequests."
    assert starter_code(HTTPX, SAMPLE, Setup.argument).endswith("\nhttpx.get('https://a.example/books',")


def test_prompt_fills_the_placeholders_and_ends_with_the_starter() -> None:
    demo = load_dataset("demo", None)
    sample = demo.samples[0]
    for library in LIBRARIES.values():
        prompt = build_prompt(library, sample, Setup.full, demo)
        assert prompt.text.endswith("```python\n" + prompt.starter)
        assert prompt.instructions + prompt.starter == prompt.text
        assert demo.display_names[sample.api] in prompt.text and library.title in prompt.text
        assert f"`{library.syntax}`" in prompt.text and "{" not in prompt.instructions.replace("{lib", "")


def test_query_values_are_written_to_be_sent_as_json_writes_them() -> None:
    assert render_call(REQUESTS, SAMPLE.config) == (
        "get('https://a.example/books', params={'available': 'true', 'limit': 10, 'tags': ['a', 'b']}, "
        "headers={'X-Api-Key': '<key>'})")
    assert "'available': True" in render_call(HTTPX, SAMPLE.config)  # httpx sends True as true


def test_bodies_by_kind_and_the_library_sets_content_type() -> None:
    base = {"url": "https://a.example/x", "method": "post"}
    json_call = render_call(REQUESTS, {**base, "headers": {"Content-Type": "application/json"}, "data": {"a": 1}})
    assert json_call == "post('https://a.example/x', json={'a': 1})"
    form = render_call(REQUESTS, {**base, "headers": {"Content-Type": "application/x-www-form-urlencoded"},
                                  "data": {"a": 1, "b": True}})
    assert form == "post('https://a.example/x', data={'a': '1', 'b': 'true'})"
    multipart = render_call(HTTPX, {**base, "headers": {"Content-Type": "multipart/form-data"}, "data": {"f": "x"}})
    assert multipart == "post('https://a.example/x', files={'f': (None, 'x')})"
    custom = render_call(HTTPX, {**base, "headers": {"Content-Type": "application/vnd.x+json"}, "data": {"a": 1}})
    assert "headers={'Content-Type': 'application/vnd.x+json'}" in custom


def test_methods_without_a_shorthand_or_body_argument_use_request() -> None:
    config = {"url": "https://a.example/x", "method": "delete", "headers": {}, "data": {"a": 1}}
    assert render_call(HTTPX, config).startswith("request('DELETE', 'https://a.example/x',")
    assert render_call(REQUESTS, config).startswith("delete(")
    with pytest.raises(ValueError):
        render_program(HTTPX, config, Setup.argument, Sample(api="x", index=0, task="t", config=config))


def test_programs_per_setup_start_with_the_starter() -> None:
    for setup in CALL_SETUPS:
        for library in (REQUESTS, HTTPX):
            code = render_program(library, SAMPLE.config, setup, SAMPLE)
            assert code.startswith(starter_code(library, SAMPLE, setup)) and code.endswith(")\n")
            compile(code, "<oracle>", "exec")
