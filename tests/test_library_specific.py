"""Deliberately library-specific programs (``tests/data/library_specific``), replayed per library in
``wire`` and ``reference`` mode: each case shows a difference that the comparison modes are meant to
expose (booleans and integral floats in query strings, JSON vs form bodies, a plain object as the
body, header spelling).

A case is a directory: ``case.json`` (the demo sample, why the case exists, and per adapter the
verdict expected in each mode) and one full program per adapter (``<adapter>.py`` / ``<adapter>.js``).
``replay/<adapter>.jsonl`` is a replay of the whole demo dataset for ``wapii compare --backend replay``:
one case per task of :data:`REPLAY`, the oracle's program (wire mode, full setup) for every other
task; the compare report must explain each library's wire differences on exactly those tasks.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from wapii_core.base.model import Generation

CASES = Path(__file__).resolve().parent / "data" / "library_specific"


def _libraries() -> dict[str, str]:
    """Adapter -> the file extension of its programs: every library the cases are written for (read
    from the first case's program files; a library joins by adding its program and expectations to
    every case and its replay file)."""
    first = next(path for path in sorted(CASES.iterdir()) if (path / "case.json").is_file())
    return {path.stem: path.suffix[1:] for path in sorted(first.iterdir()) if path.name != "case.json"}


ADAPTERS = _libraries()
REPLAY = {
    "larchwood/0": "boolean_query_as_python_bool",
    "larchwood/1": "integral_float_in_query",
    "larchwood/3": "header_names_in_lower_case",
    "larchwood/15": "plain_object_body_where_a_form_is_expected",
    "larchwood/17": "plain_object_body_where_json_is_expected",
}
"""The case replayed for each task by ``replay/<adapter>.jsonl``: per library, its natural way of
writing booleans, numbers, header names and a body."""


def cases() -> list[tuple[str, dict]]:
    return [(path.name, json.loads((path / "case.json").read_text()))
            for path in sorted(CASES.iterdir()) if (path / "case.json").is_file()]


def program(case: str, adapter: str) -> str:
    return (CASES / case / f"{adapter}.{ADAPTERS[adapter]}").read_text()


def installed(adapter: str) -> bool:
    from wapii_core.base import plugins

    needs_node = ADAPTERS[adapter] == "js"
    return adapter in plugins.adapters.names() and (not needs_node or shutil.which("node") is not None)


def test_every_case_has_a_program_and_expectations_for_every_library() -> None:
    assert len(cases()) >= 9
    for name, case in cases():
        assert set(case["expected"]) == set(ADAPTERS), name
        for adapter in ADAPTERS:
            assert (CASES / name / f"{adapter}.{ADAPTERS[adapter]}").is_file(), (name, adapter)
            assert set(case["expected"][adapter]) == {"wire", "reference"}, (name, adapter)


def test_the_replay_files_hold_the_programs_of_their_cases() -> None:
    from wapii_core.run.runner import load_dataset

    samples = dict(cases())
    assert all(samples[case]["sample"] == sample for sample, case in REPLAY.items())
    demo = [s.id for s in load_dataset("demo", None).samples]
    for adapter in ADAPTERS:
        lines = [json.loads(line) for line in (CASES / "replay" / f"{adapter}.jsonl").read_text().splitlines()]
        assert [line["sample"] for line in lines] == demo, adapter
        replayed = {line["sample"]: line["code"] for line in lines if line["sample"] in REPLAY}
        assert replayed == {sample: program(case, adapter) for sample, case in REPLAY.items()}, adapter


@pytest.mark.parametrize("adapter_name", list(ADAPTERS))
def test_replayed_cases_get_the_verdicts_their_library_explains(adapter_name: str) -> None:
    from wapii_core.base import plugins
    from wapii_core.run.runner import Judge, load_dataset

    if not installed(adapter_name):
        pytest.skip(f"adapter {adapter_name} is not installed (or Node is missing)")
    demo = load_dataset("demo", None)
    adapter = plugins.adapters.get(adapter_name)(timeout_s=2.0)
    found: dict[str, dict[str, str]] = {}
    expected: dict[str, dict[str, str]] = {}
    try:
        for mode in ("wire", "reference"):
            generations = [Generation(sample=case["sample"], code=program(name, adapter_name)) for name, case in cases()]
            for (name, case), result in zip(cases(), Judge(adapter, demo, mode)(generations)):
                found.setdefault(name, {})[mode] = result.verdict
                expected.setdefault(name, {})[mode] = case["expected"][adapter_name][mode]
    finally:
        adapter.close()
    assert found == expected


@pytest.mark.slow
def test_the_compare_report_explains_each_librarys_wire_differences(tmp_path: Path) -> None:
    from typer.testing import CliRunner
    import typer

    from wapii_core.cli import compare

    adapters = [a for a in ADAPTERS if installed(a)]
    if len(adapters) < 2 or importlib.util.find_spec("wapii_requests_py") is None:
        pytest.skip("needs requests_py and a second library")
    app = typer.Typer()
    app.command("compare")(compare.compare_command)
    out = tmp_path / "cmp"
    args = ["--backend", "replay", "--mode", "wire", "--out", str(out), "--resamples", "0", "--quiet"]
    for adapter in adapters:
        args += ["--adapter", adapter, "--generations", f"{adapter}={CASES / 'replay' / f'{adapter}.jsonl'}"]
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    compared = json.loads((out / "compare.json").read_text())
    why = {(d["solved_by"], d["not_by"]): d["why"] for d in compared["differences"]}
    markdown = (out / "compare.md").read_text()

    def explained(solved_by: str, not_by: str, task: str, *parts: str) -> None:
        if solved_by in adapters and not_by in adapters:
            text = why[(solved_by, not_by)][task]
            assert all(part in text for part in parts), (solved_by, not_by, task, text)
            assert f"  - `{task}`: {text}" in markdown

    # requests writes a Python boolean as 'True'; aiohttp refuses one
    explained("httpx_py", "requests_py", "larchwood/0", "params.available: sent 'True', expected 'true'")
    # axios records what the code wrote, not the query string; the explanation still shows what is sent
    explained("axios_js", "requests_py", "larchwood/0", "params.available: sent 'True', expected 'true'")
    explained("axios_js", "aiohttp_py", "larchwood/0", "did not run: runtime_error", "TypeError")
    # every Python library writes the float 20.0 as '20.0'; JavaScript has no integral floats
    for python in ("requests_py", "httpx_py", "aiohttp_py"):
        explained("fetch_js", python, "larchwood/1", "params.offset: sent '20.0', expected '20'")
    # a plain dict is a form for the Python libraries, JSON for axios, the text '[object Object]' for fetch
    explained("requests_py", "axios_js", "larchwood/15", "body sent as JSON, expected a form",
              "headers.Content-Type: sent 'application/json', expected 'application/x-www-form-urlencoded'")
    assert "data.condition" not in why.get(("requests_py", "axios_js"), {}).get("larchwood/15", "")  # right value
    explained("requests_py", "fetch_js", "larchwood/15", "body sent as text '[object Object]', expected a form")
    explained("axios_js", "httpx_py", "larchwood/17", "body sent as a form, expected JSON",
              "data.extend_days: sent '14', expected 14")
    explained("axios_js", "fetch_js", "larchwood/17", "body sent as text '[object Object]', expected JSON")
    # the oracle's tasks never differ; header names match regardless of case on the wire
    differing = {task for d in compared["differences"] for task in d["tasks"]}
    assert differing == set(REPLAY) - {"larchwood/3"}
    # Accept never decides a verdict, so it is not given as a reason
    assert not any("headers.Accept " in text for texts in why.values() for text in texts.values())
