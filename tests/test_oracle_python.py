"""The ``oracle`` programs of every Python adapter (those whose capabilities say ``python``) are rendered
for the mode they are judged in; that they score 100 % there is the conformance kit's check
(``tests/test_adapter_conformance.py``), and here each rendering is also judged in the other mode.

The oracle renders for the mode it is judged in: ``requests`` sends a Python ``True`` in a query
as ``True``, so for ``wire`` it writes ``'true'`` (what the API expects on the wire) and for
``reference`` it writes ``True`` (the value as the expected config holds it). Each rendering is
also judged in the other mode, which shows the difference is real: 2 demo tasks and, of WAPIIBench's
stratified subset (:func:`stratified.oracle_samples`, every construct a rendering handles; all 395
tasks: ``benchmarks/bench_oracle.py``), the tasks with a boolean query parameter. aiohttp refuses booleans in a query: its programs write
``'true'`` in both modes, which reference mode reads as the boolean (``wapii_aiohttp_py.library``).
"""

from __future__ import annotations

from collections import Counter

import pytest

from stratified import oracle_samples, subset
from support import WAPIIBENCH
from wapii_core.judge.compare import judge
from wapii_core.base.model import Setup
from wapii_core.base.setups import CALL_SETUPS
from wapii_core.base.protocols import Dataset
from wapii_core.openapi.index import SpecIndex
from wapii_core.judge.wire import judge_wire

def python_adapters() -> list[str]:
    """The installed adapters whose capabilities say they write Python."""
    from wapii_core.base import plugins

    made = {name: plugins.adapters.get(name)() for name in plugins.adapters.names()}
    return [name for name, adapter in made.items() if adapter.capabilities.language == "python"]


@pytest.fixture(scope="module", params=python_adapters())
def adapter(request):
    """Each Python adapter once per module (its sandboxed workers start once), 1 s per call."""
    from wapii_core.base import plugins

    instance = plugins.adapters.get(request.param)(timeout_s=1.0)
    yield instance
    instance.close()


@pytest.fixture(scope="module")
def wapiibench() -> Dataset:
    """WAPIIBench's stratified subset (its specs, 21 of its tasks)."""
    from wapii_core.run.runner import load_dataset

    if not (WAPIIBENCH / "dataset.json").is_file():
        pytest.skip(f"WAPIIBench not found at {WAPIIBENCH} (set WAPII_SHARED)")
    full = load_dataset("wapiibench", WAPIIBENCH)
    return subset(full, oracle_samples(full))


@pytest.fixture(scope="module")
def demo() -> Dataset:
    from wapii_core.run.runner import load_dataset

    return load_dataset("demo", None)


def verdicts(adapter, dataset: Dataset, setup: Setup, rendered_for: str) -> dict[str, Counter]:
    """``{mode: Counter(verdict)}`` of the oracle's programs rendered for one mode; boolean-query tasks apart."""
    specs = {api: SpecIndex.load(path) for api, path in dataset.specs.items()}
    calls = [adapter.extract(adapter.render(s.config, setup, s, mode=rendered_for)) for s in dataset.samples]
    assert all(c.error is None for c in calls), [c.error for c in calls if c.error][:3]
    captures = adapter.execute([c.call for c in calls])
    out: dict[str, Counter] = {"wire": Counter(), "reference": Counter()}
    for sample, call, capture in zip(dataset.samples, calls, captures):
        assert capture.error is None, (sample.id, capture.error, capture.detail)
        request = adapter.normalise(capture.request)
        boolean_query = any(isinstance(v, bool) for v in (sample.config.get("params") or {}).values())
        for mode, result in (("wire", judge_wire(sample, specs[sample.api], request)),
                             ("reference", judge(sample, specs[sample.api], request))):
            key = result.verdict if result.verdict == "correct" else f"{result.verdict} ({'boolean query' if boolean_query else 'other'})"
            out[mode][key] += 1
    return out


def expected_cross(adapter, dataset: Dataset) -> Counter:
    """Verdicts of a rendering judged in the *other* mode: only requests' boolean queries differ."""
    total = len(dataset.samples)
    if adapter.library.module != "requests":
        return Counter(correct=total)
    booleans = sum(any(isinstance(v, bool) for v in (s.config.get("params") or {}).values()) for s in dataset.samples)
    return Counter({"correct": total - booleans, "wrong (boolean query)": booleans})


@pytest.mark.parametrize("setup", list(CALL_SETUPS))
def test_oracle_on_the_demo_judged_in_the_other_mode(adapter, demo, setup) -> None:
    for mode, other in (("wire", "reference"), ("reference", "wire")):
        found = verdicts(adapter, demo, setup, rendered_for=mode)
        assert found[mode] == Counter(correct=len(demo.samples)), mode
        assert found[other] == expected_cross(adapter, demo), mode


@pytest.mark.parametrize("setup", list(CALL_SETUPS))
def test_oracle_on_a_stratified_wapiibench_subset_judged_in_the_other_mode(adapter, wapiibench, setup) -> None:
    assert any(isinstance(v, bool) for s in wapiibench.samples for v in (s.config.get("params") or {}).values())
    for mode, other in (("wire", "reference"), ("reference", "wire")):
        found = verdicts(adapter, wapiibench, setup, rendered_for=mode)
        assert found[mode] == Counter(correct=len(wapiibench.samples)), mode
        assert found[other] == expected_cross(adapter, wapiibench), mode
