"""fetch_js's prompts (every setup, every WAPIIBench task) and the extraction of the first fetch call."""

from __future__ import annotations

import pytest

from wapii_core.api import Setup
from wapii_core.testing import CALL_SETUPS
from wapii_fetch_js.extract import extract_call
from wapii_fetch_js.prompt import build_prompt
from wapii_fetch_js.render import render_program


@pytest.mark.parametrize("setup", list(CALL_SETUPS))
def test_every_prompt_ends_with_its_starter_and_the_oracle_continues_it(wapiibench, setup: Setup) -> None:
    for sample in wapiibench.samples:
        prompt = build_prompt(sample, setup, wapiibench)
        assert prompt.text == prompt.instructions + prompt.starter
        assert "fetch(url[, options])" in prompt.instructions and "{" not in prompt.instructions.replace("{...}", "")
        program = render_program(sample.config, setup, sample)
        assert program.startswith(prompt.starter)
        assert extract_call(program).call == program[program.index("fetch("):]


@pytest.mark.parametrize(("code", "call", "error"), [
    ("const r = await fetch('u', { method: 'POST' }).then((r) => r.json());\n", "fetch('u', { method: 'POST' });\n", None),
    ("fetch('u', {\n  headers: { a: 'b' },\n});\nfetch('v');", "fetch('u', {\n  headers: { a: 'b' },\n});\n", None),
    ("fetch('u')\nfetch('v')", "fetch('u')", None),
    ("// nothing\n", None, "no_request"),
    ("fetch('u', {", None, "incomplete_request"),
    ("fetch('u'); //timeout", None, "timeout"),
])
def test_the_first_fetch_call_is_cut_out(code: str, call: str | None, error: str | None) -> None:
    extraction = extract_call(code)
    assert (extraction.call, extraction.error) == (call, error)
