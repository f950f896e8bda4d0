"""The requests / httpx call grammar: keyword arguments, every WAPIIBench expected call, the setups."""

from __future__ import annotations

import pytest

from support import WAPIIBENCH
from test_grammar_axios import SPEC_VIOLATIONS
from wapii_core.grammar import accepts, get_engine
from wapii_core.base.model import Setup

PETSTORE = WAPIIBENCH / "grammar-cases" / "petstore-expanded-modified.yaml"
PETS = "'https://petstore.swagger.io/v2/pets'"
PYTHON_ONLY = {"asana/1": "a multipart body, written with files=", "slack/156": "no body where the spec requires one"}


@pytest.fixture(scope="module", params=["requests_py", "httpx_py"])
def adapter(request):
    from wapii_requests_py.adapter import httpx_adapter, requests_adapter

    made = (requests_adapter if request.param == "requests_py" else httpx_adapter)()
    yield made
    made.close()


def test_keyword_arguments_in_any_order_each_once_typed(adapter):
    grammar = adapter.constraint(PETSTORE, Setup.full).grammar
    assert accepts(grammar, f"get({PETS})")
    with_none = f"get({PETS}, headers={{'Accept': None}}, params={{'limit': 10, 'tags': ['a']}})"
    # requests drops a header set to None; httpx refuses the value (TypeError), so its grammar does not offer it
    assert accepts(grammar, with_none) == (adapter.name == "requests_py")
    assert accepts(grammar, f"get({PETS}, params={{'limit': '10'}}, timeout=5,)")  # query values may be strings
    assert accepts(grammar, "get(f'https://petstore.swagger.io/v2/pets/{pet_id}')")
    assert accepts(grammar, "post('https://petstore.swagger.io/v2/pets', json={'name': 'Rex', 'tag': 'dog'})")
    assert accepts(grammar, "post('https://petstore.swagger.io/v2/pets', data={\"name\": 'Rex'})")
    for bad in (f"get({PETS}, params={{'limit': 1}}, params={{'limit': 2}})",  # a keyword twice
                f"get({PETS}, params={{'limit': True}})",  # a boolean is no integer
                f"get({PETS}, params={{'foo': 1}})",  # not a parameter
                f"get({PETS}, json={{'name': 'x'}})",  # GET /pets has no body
                "post('https://petstore.swagger.io/v2/pets', json={'tag': 'dog'})",  # name is required
                "post('https://petstore.swagger.io/v2/pets', json={'name': 'a'}, data={'name': 'b'})",
                "get('https://petstore.swagger.io/v2/pets?limit=1')",
                "get('https://petstore.swagger.io/v2/pets-secure/1')"):  # the credential is required
        assert not accepts(grammar, bad), bad
    literal = adapter.constraint(PETSTORE, Setup.full, references=False).grammar
    assert not accepts(literal, "get(f'https://petstore.swagger.io/v2/pets/{pet_id}')")
    assert not accepts(literal, f"get({PETS}, params={{'limit': n}})")


@pytest.fixture(scope="module")
def wapiibench():
    from wapii_core.datasets.loader import load_wapiibench

    return load_wapiibench(WAPIIBENCH)


@pytest.mark.slow
def test_every_expected_call_that_keeps_to_its_spec_is_accepted_in_both_setups(adapter, wapiibench):
    from wapii_requests_py.libraries import LIBRARIES
    from wapii_requests_py.prompt import starter_code

    library = LIBRARIES[adapter.name]
    engine = get_engine()
    rejected = set()
    for setup in (Setup.full, Setup.argument):
        for sample in wapiibench.samples:
            c = adapter.constraint(wapiibench.specs[sample.api], setup)
            starter = starter_code(library, sample, setup)
            program = adapter.render(sample.config, setup, sample)
            if not accepts(c.grammar, c.prefix(starter) + program[len(starter):]):
                rejected.add(sample.id)
            if setup is Setup.argument:
                assert engine.compile(c.grammar, engine.byte_tokenizer()).matcher().feed(c.prefix(starter))
    assert rejected == set(SPEC_VIOLATIONS) | set(PYTHON_ONLY)


@pytest.mark.slow
def test_completion_grammars_of_the_argument_setup_start_after_the_url(adapter, wapiibench):
    """``Constraint.for_completion`` (a server's guided decoding) on requests/httpx starters: the
    grammar begins after ``<method>('<url>',`` and accepts the rendered arguments of that endpoint."""
    from wapii_requests_py.libraries import LIBRARIES
    from wapii_requests_py.prompt import starter_code

    library = LIBRARIES[adapter.name]
    for sample in wapiibench.samples[::9]:
        starter = starter_code(library, sample, Setup.argument)
        c = adapter.constraint(wapiibench.specs[sample.api], Setup.argument).for_completion(starter)
        assert c is not None and c.anchor == "" and c.prefix(starter) == "", sample.id
        completion = adapter.render(sample.config, Setup.argument, sample)[len(starter):]
        expected = sample.id not in set(SPEC_VIOLATIONS) | set(PYTHON_ONLY)
        assert accepts(c.grammar, completion) == expected, sample.id
    pets = adapter.constraint(PETSTORE, Setup.argument)
    assert pets.for_completion(f"{library.module}.get('https://elsewhere.org/',") is None
    delete = pets.for_completion(f"{library.module}.delete('https://petstore.swagger.io/v2/pets/7',")
    assert accepts(delete.grammar, " timeout=3)") and not accepts(delete.grammar, " json={'name': 'x'})")


def test_one_trailing_comma_after_the_keywords_and_no_more(adapter):
    grammar = adapter.constraint(PETSTORE, Setup.full).grammar
    assert accepts(grammar, f"get({PETS}, timeout=3,)") and accepts(grammar, f"get({PETS},)")
    assert accepts(grammar, f"get({PETS}, timeout=3 ,\n    )")
    for bad in (f"get({PETS}, timeout=3,,)", f"get({PETS}, timeout=3,  ,)", f"get({PETS}, timeout=3,\n ,)"):
        assert not accepts(grammar, bad), bad


def test_values_the_library_or_python_would_reject_are_not_offered(adapter):
    """No leading zeros (a SyntaxError in Python); header values without leading whitespace,
    escapes or line breaks (requests raises InvalidHeader for those)."""
    grammar = adapter.constraint(PETSTORE, Setup.full).grammar
    assert accepts(grammar, f"get({PETS}, timeout=30)") and accepts(grammar, f"get({PETS}, timeout=0.5)")
    assert not accepts(grammar, f"get({PETS}, timeout=03)")
    assert not accepts(grammar, f"get({PETS}, params={{'tags': ['a\x00b']}})")  # Python refuses NUL in source
    assert accepts(grammar, f"get({PETS}, params={{'tags': ['a\\x00b']}})")  # the escape is fine
    for escape in ("\\x4", "\\N{DASH}", "\\U0001F600", "\\ud800", "\\u12"):  # SyntaxError, or unencodable
        assert not accepts(grammar, f"get({PETS}, params={{'tags': ['a{escape}z']}})"), escape
    assert accepts(grammar, f"get({PETS}, params={{'tags': ['a\\u00e9\\n\\'b']}})")
    assert accepts(grammar, f"get({PETS}, params={{'tags': [f'a{{tag}}']}})")  # an f-string placeholder: a reference
    assert not accepts(grammar, f"get({PETS}, params={{'tags': [f'a{{not code}}']}})")
    assert accepts(grammar, f"get({PETS}, headers={{'Accept': 'application/json, */*'}})")
    for value in ("' json'", "'a\\nb'", "'a\\\\r'", "'\\x41'"):
        assert not accepts(grammar, f"get({PETS}, headers={{'Accept': {value}}})"), value
