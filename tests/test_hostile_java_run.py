"""Hostile Java programs in a real run (``tests/hostile/java_run``), judged from outside the sandbox.

Each program replaces one sample's generation in a replay run of one Java adapter on WAPIIBench,
with and without bubblewrap (``WAPII_BWRAP=``). The two adapters share the JVM machinery
(``wapii_core.jvm``: worker, recorder, sandbox), so each program runs through one of them
(:func:`adapter_of`): the programs that aim at one library on it (:data:`LIBRARY_SPECIFIC`), the
others alternating (for ``okhttp_java``, the program's last, wrong request made with OkHttp:
:data:`WRONG`). A program forges the worker's answer, exits early, runs a
shell, another JVM or a native library, writes files, reads host secrets or the other programs of its batch, reaches the network, leaves
a thread running to send the next sample's request, kills its worker, starts threads, memory, disk or
CPU until refused, floods the recorder, reaches into the JDK's internals, removes wapii's
pass-through TLS provider to speak real TLS, or attacks javac itself (a constant that exhausts its
heap, nesting that overflows its stack, error recovery that runs for hours: each must be that
program's own ``compile_limit``, its batch compiled). The run must end with
``summary.json`` and ``report.md``; no hostile program may be judged correct; each ordinary program
(one worker, so each runs right after a hostile one) must get the verdict it gets in a run without
them; no canary (watched folder, loopback server, secret strings, leftover processes, the marker)
may trip. A program's first line says what it must get: ``// expect: not_correct``,
``// expect: runtime_error``, ``// expect: timeout`` or ``// expect: runtime_error|timeout`` (either).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hostile.canaries import Canaries
from hostile.fixtures import canaries, sandbox_user  # noqa: F401 - fixtures
from support import WAPIIBENCH, benign_problems, hostile_problems, needs_shared
from wapii_core.sandbox import bwrap

CORPUS = Path(__file__).resolve().parent / "hostile" / "java_run"
WRONG = {
    "httpclient_java": 'client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__/extra")).build(), '
                       'HttpResponse.BodyHandlers.ofString());',
    "okhttp_java": 'new okhttp3.OkHttpClient().newCall(new okhttp3.Request.Builder().url("__EXPECTED_URL__/extra")'
                   '.build()).execute();',
}
"""Each program's last statement, its wrong request, as each adapter's library makes it."""
ADAPTERS = ("httpclient_java", "okhttp_java")
LIBRARY_SPECIFIC = {"14_reflection_into_the_client": "httpclient_java", "16_bypass_the_tls_provider": "httpclient_java"}
"""Programs that attack one library's internals: run through that library's adapter."""
TIMEOUT_S = "4"
"""Each program's limit: the endless loop waits it out once per run; an ordinary program (a JVM
started from the class-data archive) ends far within it."""

COMPILE_BUDGET = {"WAPII_COMPILE_MEMORY_MB": "384", "WAPII_COMPILE_BASE_S": "6", "WAPII_COMPILE_PER_PROGRAM_S": "0.1"}
"""A small compile budget, far above what an ordinary batch needs: the programs that attack the
compiler (memory, time) reach it within seconds instead of minutes."""

COMPILE_LIMIT = ("17_constant_folding_exhausts_javac", "18_deep_nesting_overflows_javac", "19_error_recovery_runs_javac_for_minutes")
"""The programs that must meet the compile budget (their detail ``compile_limit: ...``), not merely fail."""

pytestmark = needs_shared("wapiibench", "dataset.json")


def _programs() -> list[tuple[str, str, str]]:
    out = []
    for path in sorted(CORPUS.glob("*.java")):
        text = path.read_text()
        expect = text.splitlines()[0].split("expect:", 1)[1].split("--", 1)[0].strip()
        out.append((path.stem, expect, text))
    return out


def adapter_of() -> dict[str, str]:
    """Program name -> the one Java adapter it runs through: its library's if it aims at one, else the
    two in turn (in the corpus's order), so that each adapter runs about half."""
    names = [name for name, _, _ in _programs()]
    free = [name for name in names if name not in LIBRARY_SPECIFIC]
    return {name: LIBRARY_SPECIFIC.get(name) or ADAPTERS[free.index(name) % len(ADAPTERS)] for name in names}


def test_every_program_runs_through_one_java_adapter_and_both_run_some() -> None:
    chosen = adapter_of()
    assert sorted(chosen) == sorted(name for name, _, _ in _programs()) and len(chosen) == 20
    assert set(chosen.values()) == set(ADAPTERS)
    assert all(chosen[name] == library for name, library in LIBRARY_SPECIFIC.items())


def _fill(template: str, sample: Any, following: Any, canaries: Canaries, adapter: str) -> str:
    assert WRONG["httpclient_java"] in template
    template = template.replace(WRONG["httpclient_java"], WRONG[adapter])
    if adapter != "httpclient_java":  # the program's own request, made with the adapter's library
        template = template.replace('client.send(HttpRequest.newBuilder(URI.create("__EXPECTED_URL__" + mark + "/extra")).build(), '
                                    'HttpResponse.BodyHandlers.ofString());',
                                    WRONG[adapter].replace('"__EXPECTED_URL__/extra"', '"__EXPECTED_URL__" + mark + "/extra"'))
    return (template.replace("__EXPECTED_URL__", sample.config["url"]).replace("__NEXT_URL__", following.config["url"])
            .replace("__NEXT_METHOD__", following.config["method"].upper())
            .replace("__CANARY_DIR__", str(canaries.directory)).replace("__CANARY_PORT__", str(canaries.port))
            .replace("__MARKER__", canaries.marker))


def _wrong(program: str) -> str:
    """An ordinary program made wrong: its URL one path segment off."""
    anchor = next(a for a in ('URI.create("', '.url("') if a in program)
    start = program.index(anchor) + len(anchor)
    end = program.index('"', start)
    return program[:end] + "/extra" + program[end:]


def _replay(tmp_path: Path, name: str, lines: list[dict[str, str]], limit: int,
            adapter: str) -> tuple[Any, dict[str, Any]]:
    from wapii_core.run.runner import RunConfig, run

    generations = tmp_path / f"{name}.jsonl"
    generations.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / name
    summary = run(RunConfig(dataset="wapiibench", data_dir=WAPIIBENCH, adapter=adapter, backend="replay",
                            generations=generations, limit=limit, mode="wire"), out)
    assert (out / "summary.json").is_file() and (out / "report.md").is_file()
    results = {r["sample"]: r for r in map(json.loads, (out / "results.jsonl").read_text().split("\n")[:-1])}
    return summary, results


@pytest.mark.slow
@pytest.mark.parametrize("adapter_name", ADAPTERS)
@pytest.mark.parametrize("layers", ["bubblewrap", "no-bubblewrap"])
def test_java_hostile_programs_in_a_run(layers: str, adapter_name: str, canaries: Canaries,  # noqa: F811
                                        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from wapii_core.base import plugins
    from wapii_core.base.errors import WapiiError
    from wapii_core.base.model import Setup
    from wapii_core.run.runner import load_dataset

    if layers == "no-bubblewrap":
        monkeypatch.setenv(bwrap.BWRAP_ENV, "")
    monkeypatch.setenv("WAPII_HTTPCLIENT_JAVA_WORKERS", "1")
    monkeypatch.setenv("WAPII_OKHTTP_JAVA_WORKERS", "1")  # each ordinary program runs right after a hostile one
    monkeypatch.setenv("WAPII_HTTPCLIENT_JAVA_TIMEOUT", TIMEOUT_S)
    monkeypatch.setenv("WAPII_OKHTTP_JAVA_TIMEOUT", TIMEOUT_S)
    for name, value in COMPILE_BUDGET.items():  # the compile-time bombs meet their limit in seconds
        monkeypatch.setenv(name, value)
    programs = [program for program in _programs() if adapter_of()[program[0]] == adapter_name]
    dataset = load_dataset("wapiibench", WAPIIBENCH)
    samples = dataset.samples[: 2 * len(programs)]
    hostile, ordinary = samples[0::2], samples[1::2]
    if adapter_name not in plugins.adapters.names():
        pytest.skip(f"adapter {adapter_name} is not installed")
    adapter = plugins.adapters.get(adapter_name)()
    try:
        adapter.java_library()
    except WapiiError as exc:
        pytest.skip(str(exc))
    benign = {s.id: (adapter.render(s.config, Setup.full, s) if n % 2 == 0 else _wrong(adapter.render(s.config, Setup.full, s)))
              for n, s in enumerate(ordinary)}
    limit = len(samples)

    _, alone = _replay(tmp_path, "alone", [{"sample": sid, "code": code} for sid, code in benign.items()], limit,
                       adapter_name)
    lines, expect = [], {}
    for (name, expectation, template), sample, following in zip(programs, hostile, ordinary):
        lines += [{"sample": sample.id, "code": _fill(template, sample, following, canaries, adapter_name)},
                  {"sample": following.id, "code": benign[following.id]}]
        expect[sample.id] = (name, expectation)
    summary, mixed = _replay(tmp_path, "mixed", lines, limit, adapter_name)

    assert summary.judged == len(lines)
    verdicts = {alone[sid]["verdict"] for sid in benign}
    assert "correct" in verdicts and len(verdicts) == 2  # both kinds of ordinary program ran
    problems = benign_problems(benign, alone, mixed) + hostile_problems(expect, mixed, ("runtime_error", "timeout"))
    problems += [f"{name}: {mixed[sid]['error_detail']}" for sid, (name, _) in expect.items()
                 if name in COMPILE_LIMIT and not (mixed[sid]["error_detail"] or "").startswith("compile_limit: ")]
    assert problems == [], "\n".join(problems)
    stored = [path.read_text(errors="replace") for path in tmp_path.rglob("*") if path.is_file()]
    assert canaries.violations(stored) == []
    sent = [(result.get("request") or {}).get("url") or "" for result in mixed.values()]
    assert not any(f"escaped-{canaries.marker}" in url for url in sent)  # no program read another's files
