"""Hostile Python programs in a real run (``tests/hostile/py_run``), judged from outside the sandbox.

Each program replaces one sample's generation in a replay run of a Python adapter on WAPIIBench:
``requests_py``, and ``aiohttp_py``, for which each program's ``requests`` calls are made with
aiohttp (:data:`AIOHTTP_PRELUDE`) and its patches aim at aiohttp's harness. It makes a wrong call of
its own while trying to be judged correct anyway (forged answers and hints, patched harness objects,
a flooded or garbled wire channel), to change the verdicts of the samples after it, to smuggle host
secrets into the run directory or to harm the processes above it. The run must end with
``summary.json`` and ``report.md``; no hostile sample may be judged correct; every sample between
them must get the verdict it gets in a run without them (one worker, so each one runs right after a
hostile one); no canary may trip. Each run is made in the ``wire`` mode (the adapter's default) and
in the ``reference`` mode, which alone uses the typed query values the snippet reports.

A program's first line says what it must get: ``# expect: <kind> -- why``, with ``<kind>`` one of
``not_correct``, ``runtime_error``, ``blocked`` or ``any`` (no demand but that the run ends and no
canary trips); ``# expect: <kind> in reference -- why`` demands it in that mode only (``any`` in
the others: a program that sends the expected bytes is correct in ``wire`` mode by design).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from hostile.fixtures import canaries, sandbox_user  # noqa: F401 - fixtures
from hostile.canaries import Canaries
from support import WAPIIBENCH, benign_problems, needs_shared
from wapii_core.base.workers import env_prefix
from wapii_core.sandbox import bwrap

CORPUS = Path(__file__).resolve().parent / "hostile" / "py_run"

pytestmark = needs_shared("wapiibench", "dataset.json")


def _programs(mode: str) -> list[tuple[str, str, str]]:
    """``(name, expectation in ``mode``, template)`` of every program of the family."""
    out = []
    for path in sorted(CORPUS.glob("*.py")):
        text = path.read_text()
        expect, _, modes = text.splitlines()[0].split("expect:", 1)[1].split("--", 1)[0].strip().partition(" in ")
        out.append((path.stem, expect if not modes or mode in modes.split() else "any", text))
    return out


def _record(config: dict[str, Any]) -> dict[str, Any]:
    """The expected request as a capture record of the kind the harness once returned from inside the
    snippet's process (what a forger would hand in)."""
    params = config.get("params") or {}
    headers = [[name, str(value)] for name, value in config["headers"].items()]
    body = None
    if config.get("data") is not None:
        body = {"text": json.dumps(config["data"])}
        if not any(name.lower() == "content-type" for name, _ in headers):
            headers.append(["Content-Type", "application/json"])
    return {"library": "requests", "method": config["method"].upper(),
            "url": config["url"] + ("?" + urlencode(params, doseq=True) if params else ""),
            "headers": headers, "body": body, "passed": {"url": config["url"], "params": params}}


AIOHTTP_PRELUDE = '''import aiohttp, asyncio
aiohttp.ClientSession  # extraction keeps the program from its first use of the library on


def _query(params):
    return None if params is None else {k: ("true" if v else "false") if isinstance(v, bool) else v
                                        for k, v in dict(params).items()}


class requests:
    """The corpus's requests calls, made with aiohttp."""

    @staticmethod
    def request(method, url, params=None, headers=None, data=None, json=None, **ignored):
        async def call():
            async with aiohttp.ClientSession() as session:
                async with session.request(method, url, params=_query(params), headers=headers, data=data,
                                           json=json) as response:
                    return response
        return asyncio.run(call())

    get = staticmethod(lambda url, **kw: requests.request("GET", url, **kw))
    post = staticmethod(lambda url, **kw: requests.request("POST", url, **kw))
    Session = None
'''
"""What stands for ``requests`` in a corpus program run by ``aiohttp_py``."""


def _for_adapter(template: str, adapter: str) -> str:
    """The corpus program for ``adapter``: as written for ``requests_py``; for ``aiohttp_py`` its
    ``import requests`` lines give way to :data:`AIOHTTP_PRELUDE` and it patches aiohttp's harness."""
    if adapter == "requests_py":
        return template
    first, _, rest = template.partition("\n")
    rest = "\n".join(line for line in rest.split("\n") if line.strip() != "import requests"
                     and not line.startswith("requests.Session  #"))
    return first + "\n" + AIOHTTP_PRELUDE + rest.replace("wapii_requests_py.harness", "wapii_aiohttp_py.harness")


def _fill(template: str, sample: Any, following: Any) -> str:
    return (template.replace("__EXPECTED_URL__", sample.config["url"])
            .replace("__EXPECTED_RECORD__", repr(_record(sample.config)))
            .replace("__NEXT_RECORD__", repr(_record(following.config)))
            .replace("__EXPECTED_PARAMS__", repr(sample.config.get("params") or {}))
            .replace("__NEXT_METHOD__", following.config["method"].upper())
            .replace("__NEXT_URL__", following.config["url"]))


def _wrong(program: str, anchor: str) -> str:
    """An ordinary program made wrong: the same call (after ``anchor``) one path segment off."""
    start = program.rindex(anchor)
    quote = program.index("'", start)
    return program[: quote + 1] + program[quote + 1:].replace("'", "/extra'", 1)


def _replay(tmp_path: Path, name: str, lines: list[dict[str, str]], limit: int,
            mode: str, adapter: str) -> tuple[dict[str, Any], dict[str, Any]]:
    from wapii_core.run.runner import RunConfig, run

    generations = tmp_path / f"{name}.jsonl"
    generations.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / name
    summary = run(RunConfig(dataset="wapiibench", data_dir=WAPIIBENCH, adapter=adapter, backend="replay",
                            generations=generations, limit=limit, mode=mode), out)
    assert (out / "summary.json").is_file() and (out / "report.md").is_file()
    results = {r["sample"]: r for r in map(json.loads, (out / "results.jsonl").read_text().split("\n")[:-1])}
    return summary, results


@pytest.mark.slow
@pytest.mark.parametrize("adapter_name", ["requests_py", "aiohttp_py"])
@pytest.mark.parametrize("mode", ["wire", "reference"])
@pytest.mark.parametrize("layers", ["bubblewrap", "no-bubblewrap"])
def test_python_hostile_programs_in_a_run(layers: str, mode: str, adapter_name: str, canaries: Canaries,
                                          tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from wapii_core.base import plugins
    from wapii_core.base.model import Setup
    from wapii_core.run.runner import load_dataset

    if adapter_name not in plugins.adapters.names():
        pytest.skip(f"adapter {adapter_name} is not installed")
    if layers == "no-bubblewrap":
        monkeypatch.setenv(bwrap.BWRAP_ENV, "")
    monkeypatch.setenv(f"{env_prefix(adapter_name)}_WORKERS", "1")  # each ordinary program runs right after a hostile one
    monkeypatch.setenv(f"{env_prefix(adapter_name)}_TIMEOUT", "2")
    programs = _programs(mode)
    dataset = load_dataset("wapiibench", WAPIIBENCH)
    samples = dataset.samples[: 8 * len(programs)]
    hostile = [s for s in samples if s.config.get("params")][: len(programs)]
    ordinary = [s for s in samples if s not in hostile][: len(programs)]
    assert len(hostile) == len(ordinary) == len(programs)
    adapter = plugins.adapters.get(adapter_name)()
    anchor = "requests." if adapter_name == "requests_py" else "session."
    try:
        benign = {}
        for n, sample in enumerate(ordinary):
            program = adapter.render(sample.config, Setup.full, sample, mode)
            benign[sample.id] = program if n % 2 == 0 else _wrong(program, anchor)
    finally:
        adapter.close()
    limit = max(samples.index(s) for s in hostile + ordinary) + 1

    _, alone = _replay(tmp_path, "alone", [{"sample": sid, "code": code} for sid, code in benign.items()], limit, mode,
                       adapter_name)
    lines, expect = [], {}
    for (name, expectation, template), sample, following in zip(programs, hostile, ordinary):
        lines += [{"sample": sample.id, "code": _fill(_for_adapter(template, adapter_name), sample, following)},
                  {"sample": following.id, "code": benign[following.id]}]
        expect[sample.id] = (name, expectation)
    summary, mixed = _replay(tmp_path, "mixed", lines, limit, mode, adapter_name)

    assert summary.judged == len(lines)
    assert {alone[sid]["verdict"] for sid in benign} == {"correct", "illegal"}  # both kinds of ordinary program ran
    problems = benign_problems(benign, alone, mixed)
    for sid, (name, expectation) in expect.items():
        result = mixed[sid]
        detail = result["error_detail"] or ""
        if expectation == "any":
            continue
        if result["verdict"] == "correct":
            problems.append(f"{name}: judged correct")
        elif expectation == "runtime_error" and result["error"] != "runtime_error":
            problems.append(f"{name}: expected a runtime error, got {result['verdict']} {result['error']} {detail}")
        elif expectation == "blocked" and "blocked: " not in detail:
            problems.append(f"{name}: expected blocked, got {result['verdict']} {result['error']} {detail}")
    assert problems == [], "\n".join(problems)
    stored = [path.read_text(errors="replace") for path in tmp_path.rglob("*") if path.is_file()]
    assert canaries.violations(stored) == []
