"""Rendering: WAPIIBench's stratified subset (every construct a rendering handles, ``tests/stratified.py``),
in every setup, round-trips through extract → execute → normalise back to the expected config exactly
(all 395 tasks: ``benchmarks/bench_oracle.py`` judges them)."""

from __future__ import annotations

import pytest

from wapii_core.api import Sample, Setup
from wapii_core.testing import CALL_SETUPS
from wapii_axios_js.adapter import AxiosAdapter
from wapii_axios_js.prompt import starter_code
from wapii_axios_js.render import js_literal, js_string, render_program


@pytest.mark.slow
def test_round_trip_of_a_stratified_subset_in_every_setup(adapter: AxiosAdapter, shared) -> None:
    from stratified import oracle_samples
    from wapii_core.testing import load_dataset

    samples = oracle_samples(load_dataset("wapiibench", shared / "wapiibench"))
    assert len(samples) >= 20
    cases = [(sample, setup) for sample in samples for setup in CALL_SETUPS]
    programs = [adapter.render(sample.config, setup, sample) for sample, setup in cases]
    for (sample, setup), program in zip(cases, programs):
        assert program.startswith(starter_code(sample, setup))
    extractions = [adapter.extract(program) for program in programs]
    assert all(e.call is not None for e in extractions)
    captures = adapter.execute([e.call for e in extractions])
    mismatches = [
        (sample.id, setup.value, capture.error or adapter.normalise(capture.request))
        for (sample, setup), capture in zip(cases, captures)
        if capture.request is None or adapter.normalise(capture.request) != sample.config
    ]
    assert mismatches == []


SAMPLE = Sample(api="demo", index=0, task="Do it.", config={"url": "https://x.example/a", "method": "post", "headers": {}})


@pytest.mark.parametrize(
    "config",
    [
        {"url": "https://x.example/a", "method": "get", "headers": {}},
        {"url": "https://x.example/a", "method": "post", "headers": {"Accept": "*/*"}, "data": {"k-y": "it's", "1": [{}]}},
        {"url": "https://x.example/a", "method": "delete", "headers": {"Accept": "*/*"}, "data": {"ids": [1, 2]}},
        {"url": "https://x.example/a", "method": "patch", "headers": {"Content-Type": "application/json"}, "params": {}},
        {"url": "https://x.example/a", "method": "link", "headers": {"Accept": "*/*"}, "params": {"a": "b"}},
    ],
)
def test_round_trip_of_configs_without_axios_defaults(adapter: AxiosAdapter, config: dict) -> None:
    program = render_program(config, Setup.imports, SAMPLE)
    (capture,) = adapter.execute([adapter.extract(program).call])
    assert adapter.normalise(capture.request) == config


def test_argument_setup_needs_the_samples_endpoint() -> None:
    other = {"url": "https://x.example/b", "method": "post", "headers": {}}
    with pytest.raises(ValueError):
        render_program(other, Setup.argument, SAMPLE)
    program = render_program(SAMPLE.config, Setup.argument, SAMPLE)
    assert program.endswith("axios.post('https://x.example/a', undefined, { headers: { Accept: false, 'Content-Type': false } });\n")


def test_literals() -> None:
    assert js_string("it's\n\\ \u2028") == "'it\\'s\\n\\\\ \\u2028'"
    assert js_literal({"a": [1, 2.5, True, None], "b-c": {}}) == "{ a: [1, 2.5, true, null], 'b-c': {} }"
    assert js_literal({"__proto__": 1}) == "{ ['__proto__']: 1 }"
    with pytest.raises(ValueError):
        js_literal(float("nan"))
