"""Deliberately library-specific programs (``tests/data/library_specific``), replayed per Python library
in ``wire`` and ``reference`` mode: each case shows a difference that the comparison modes are meant
to expose (booleans and integral floats in query strings, JSON vs form bodies, header spelling).

A case is a directory: ``case.json`` (the demo sample, why the case exists, and per adapter the
verdict expected in each mode) and one full program per adapter (``<adapter>.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wapii_core.model import Generation

CASES = Path(__file__).resolve().parent / "data" / "library_specific"
ADAPTERS = ["requests_py", "httpx_py", "aiohttp_py"]


def cases() -> list[tuple[str, dict]]:
    return [(path.name, json.loads((path / "case.json").read_text())) for path in sorted(CASES.iterdir())]


def test_every_case_has_a_program_and_expectations_for_every_library() -> None:
    assert len(cases()) >= 6
    for name, case in cases():
        assert set(case["expected"]) == set(ADAPTERS), name
        for adapter in ADAPTERS:
            assert (CASES / name / f"{adapter}.py").is_file(), (name, adapter)
            assert set(case["expected"][adapter]) == {"wire", "reference"}, (name, adapter)


@pytest.mark.parametrize("adapter_name", ADAPTERS)
def test_replayed_cases_get_the_verdicts_their_library_explains(adapter_name: str) -> None:
    from wapii_core import plugins
    from wapii_core.runner import Judge, load_dataset

    if adapter_name not in plugins.adapters.names():
        pytest.skip(f"adapter {adapter_name} is not installed")
    demo = load_dataset("demo", None)
    adapter = plugins.adapters.get(adapter_name)(timeout_s=1.0)
    found: dict[str, dict[str, str]] = {}
    expected: dict[str, dict[str, str]] = {}
    try:
        for mode in ("wire", "reference"):
            generations = [Generation(sample=case["sample"], code=(CASES / name / f"{adapter_name}.py").read_text())
                           for name, case in cases()]
            for (name, case), result in zip(cases(), Judge(adapter, demo, mode)(generations)):
                found.setdefault(name, {})[mode] = result.verdict
                expected.setdefault(name, {})[mode] = case["expected"][adapter_name][mode]
    finally:
        adapter.close()
    assert found == expected
