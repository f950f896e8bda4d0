"""The prompt's starter code per setup, and the oracle's programs (rendered, then cut out again)."""

from __future__ import annotations

import pytest

from wapii_core.api import Setup
from wapii_core.testing import CALL_SETUPS
from wapii_aiohttp_py.prompt import ANCHOR, build_prompt, starter_code
from wapii_aiohttp_py.render import render_program


def test_the_starters_open_a_session_and_the_request_header(demo) -> None:
    sample = demo.samples[0]
    full = starter_code(sample, Setup.full)
    assert full.startswith("# Search the catalogue") and full.endswith(
        "import aiohttp\n\nasync with aiohttp.ClientSession() as session:\n    async with session.")
    assert starter_code(sample, Setup.argument) == full + "get('https://api.larchwood-library.example/v2/books',"
    assert starter_code(sample, Setup.imports).endswith("import aiohttp\n")
    assert full.endswith("\n" + ANCHOR)
    prompt = build_prompt(sample, Setup.full, demo)
    assert prompt.text == prompt.instructions + prompt.starter and prompt.starter == full
    assert "`async with session.<method>(url, params=..., headers=..., json=..." in prompt.instructions
    assert "{" not in prompt.instructions.replace("{library}", "")


@pytest.mark.parametrize("setup", list(CALL_SETUPS))
def test_rendered_programs_are_extracted_whole(adapter, demo, setup) -> None:
    for sample in demo.samples:
        program = adapter.render(sample.config, setup, sample)
        assert program.startswith(starter_code(sample, setup))
        extraction = adapter.extract(program)
        assert extraction.error is None and "session." in extraction.call, sample.id


def test_bodies_by_kind_and_booleans_as_strings(demo) -> None:
    sample = demo.samples[0]
    config = {"url": "https://a.example/x", "method": "post", "params": {"on": True, "n": 3.0, "ids": [1, False]},
              "headers": {"Content-Type": "multipart/form-data"}, "data": {"a": 1, "b": True}}
    program = render_program(config, Setup.full, sample)
    assert ("post('https://a.example/x', params={'on': 'true', 'n': 3, 'ids': [1, 'false']}, "
            "data=aiohttp.FormData({'a': '1', 'b': 'true'}, default_to_multipart=True)) as response:") in program
    form = {**config, "params": None, "headers": {"Content-Type": "application/x-www-form-urlencoded"}}
    assert "data={'a': '1', 'b': 'true'})" in render_program(form, Setup.full, sample)
    raw = {**form, "headers": {"Content-Type": "text/plain"}, "data": "hello"}
    assert "headers={'Content-Type': 'text/plain'}, data='hello')" in render_program(raw, Setup.full, sample)
    other = {"url": "https://a.example/x", "method": "trace", "headers": {}}
    assert "session.request('TRACE', 'https://a.example/x') as response:" in render_program(other, Setup.full, sample)
    with pytest.raises(ValueError, match="argument setup fixes"):
        render_program(other, Setup.argument, sample)
