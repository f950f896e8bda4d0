"""The aiohttp call grammar: the rendered call of every WAPIIBench task that keeps to its spec is
accepted in both setups; what aiohttp refuses (booleans in a query, ``None`` headers) is not offered."""

from __future__ import annotations

import pytest

from support import WAPIIBENCH, needs_shared
from test_grammar_axios import SPEC_VIOLATIONS
from wapii_core.api import Setup
from wapii_core.kits.grammar import get_engine
from wapii_core.testing import accepts
from wapii_aiohttp_py.prompt import starter_code

PETSTORE = WAPIIBENCH / "grammar-cases" / "petstore-expanded-modified.yaml"
PETS = "'https://petstore.swagger.io/v2/pets'"
PYTHON_ONLY = {"asana/1": "a multipart body, written with aiohttp.FormData", "slack/156": "no body where the spec requires one"}
TRAILER = " as response:\n        pass\n"

pytestmark = needs_shared("wapiibench", "grammar-cases", PETSTORE.name)


def test_keyword_arguments_and_what_aiohttp_refuses(adapter) -> None:
    grammar = adapter.constraint(PETSTORE, Setup.full).grammar
    assert accepts(grammar, f"get({PETS})")
    assert accepts(grammar, f"get({PETS}, params={{'limit': 10, 'tags': ['a']}})")
    assert accepts(grammar, "post('https://petstore.swagger.io/v2/pets', json={'name': 'Rex', 'tag': 'dog'})")
    for bad in (f"get({PETS}, headers={{'Accept': None}})", f"get({PETS}, params={{'limit': True}})",
                f"get({PETS}, params={{'foo': 1}})", f"get({PETS}, data={{'name': 'x'}})", f"get({PETS}, timeout=1)"):
        assert not accepts(grammar, bad), bad


def test_every_expected_call_that_keeps_to_its_spec_is_accepted_in_both_setups(adapter) -> None:
    from wapii_core.testing import load_wapiibench

    wapiibench = load_wapiibench(WAPIIBENCH)
    engine = get_engine()
    rejected = set()
    for setup in (Setup.full, Setup.argument):
        for sample in wapiibench.samples:
            c = adapter.constraint(wapiibench.specs[sample.api], setup)
            starter = starter_code(sample, setup)
            program = adapter.render(sample.config, setup, sample)
            assert program.endswith(TRAILER)
            if not accepts(c.grammar, c.prefix(starter) + program[len(starter):-len(TRAILER)]):
                rejected.add(sample.id)
            if setup is Setup.argument:
                assert c.prefix(starter).startswith(sample.config["method"] + "(")
                assert engine.compile(c.grammar, engine.byte_tokenizer()).matcher().feed(c.prefix(starter))
    assert rejected == set(SPEC_VIOLATIONS) | set(PYTHON_ONLY)


def test_the_import_setup_reaches_the_session_call(adapter) -> None:
    grammar = adapter.constraint(PETSTORE, Setup.imports).grammar
    assert accepts(grammar, f"\nasync with aiohttp.ClientSession() as session:\n    async with session.get({PETS})")
