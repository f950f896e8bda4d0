"""Compile-time attacks among the demo's 25 ordinary programs (issue 35's "Done when").

Each program of ``tests/hostile/go_run`` and ``tests/hostile/java_run`` that attacks the compilers
(a build constraint that would drop its file from the shared package, a constant that exhausts the
compiler, an expression that stalls the Go preparation, javac's heap, stack and error recovery, a
reach for files outside the batch at compile time) is compiled in one batch with the demo's 25
ordinary programs: a replay run of the demo's 26 tasks, each an ordinary program (the oracle's, every
other one made wrong) but one, the attacker. Each ordinary program must keep the verdict it gets in
a run where an ordinary program stands in the attacker's place;
the attacker alone gets its own judged failure (``compile_limit: ...`` for the bombs, ``compile_error:
...`` for what does not compile). And a resume (the same ``wapii run`` again, then ``wapii evaluate``,
which compiles everything again) gives the same verdicts, no traceback, exit status 0 as for any run
whose programs failed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from support import REPO, hostile_problems
from test_hostile_go_run import COMPILE_BUDGET
from test_hostile_java_run import _fill, _wrong

GO_RUN = REPO / "tests" / "hostile" / "go_run"
JAVA_RUN = REPO / "tests" / "hostile" / "java_run"
ATTACKER_TASK = 12
"""The task whose program is the attacker (ordinary programs on both sides)."""
ATTACKS = {
    "nethttp_go": {"21_build_constraint_drops_the_file": None,
                   "22_constant_doubling_exhausts_the_compiler": "compile_limit: ",
                   "23_flat_expression_stalls_the_preparation": "compile_limit: ",
                   "25_compile_time_reach_outside_the_batch": "compile_error: "},
    "httpclient_java": {"17_constant_folding_exhausts_javac": "compile_limit: ",
                        "19_error_recovery_runs_javac_for_minutes": "compile_limit: "},
    "okhttp_java": {"18_deep_nesting_overflows_javac": "compile_limit: ",
                    "20_compile_time_reach_another_unit": None},
}
"""Each compile-time attack, the adapter it runs through, and how its detail must begin (None: any
judged failure, for an attack whose compilation is neutralised and whose program then fails)."""
RESUMED = {"nethttp_go": "23_flat_expression_stalls_the_preparation", "httpclient_java": "19_error_recovery_runs_javac_for_minutes"}
"""The attacks whose run is resumed (the ones that, before the budget, ended a run and every resume
with a traceback, or timed out every program of the batch)."""


def _available(adapter_name: str) -> Any:
    from wapii_core.base import plugins
    from wapii_core.base.errors import WapiiError

    if adapter_name not in plugins.adapters.names():
        pytest.skip(f"adapter {adapter_name} is not installed")
    adapter = plugins.adapters.get(adapter_name)()
    if adapter_name.endswith("_java"):
        try:
            adapter.java_library()
        except WapiiError as exc:
            pytest.skip(str(exc))
    return adapter


def _ordinary(adapter_name: str) -> dict[str, str]:
    """An ordinary program for each of the demo's 26 tasks (every other one made wrong: a path segment off)."""
    from wapii_core.base.model import Setup
    from wapii_core.run.runner import load_dataset

    adapter = _available(adapter_name)
    samples = load_dataset("demo", None).samples
    assert len(samples) == 26
    out = {}
    for n, sample in enumerate(samples):
        program = adapter.render(sample.config, Setup.full, sample)
        if n % 2:
            if adapter_name == "nethttp_go":
                quoted = json.dumps(sample.config["url"])
                program = program.replace(quoted, quoted[:-1] + '/extra"', 1)
            else:
                program = _wrong(program)
        out[sample.id] = program
    return out


def _attacker(adapter_name: str, name: str, sample: Any, tmp_path: Path) -> str:
    if adapter_name == "nethttp_go":
        template = (GO_RUN / f"{name}.go").read_text()
        return (template.replace("__EXPECTED_URL__", sample.config["url"]).replace("__NEXT_URL__", sample.config["url"])
                .replace("__NEXT_METHOD__", sample.config["method"].upper())
                .replace("__DATASET__", str(tmp_path / "dataset.json")))
    nothing = SimpleNamespace(directory=tmp_path / "canaries", port=9, marker="unused")
    return _fill((JAVA_RUN / f"{name}.java").read_text(), sample, sample, nothing, adapter_name)


def _lines(ordinary: dict[str, str], attacker: str | None) -> list[dict[str, Any]]:
    return [{"sample": sid, "code": attacker if attacker is not None and n == ATTACKER_TASK else code}
            for n, (sid, code) in enumerate(ordinary.items())]


def _results(out: Path) -> dict[str, dict[str, Any]]:
    assert (out / "summary.json").is_file() and (out / "report.md").is_file()
    return {r["sample"]: r for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())}


def _run(tmp_path: Path, name: str, adapter_name: str, lines: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    from wapii_core.run.runner import RunConfig, run

    generations = tmp_path / f"{name}.jsonl"
    generations.write_text("".join(json.dumps(line) + "\n" for line in lines))
    run(RunConfig(dataset="demo", adapter=adapter_name, backend="replay", generations=generations,
                  mode="wire"), tmp_path / name)
    return _results(tmp_path / name)


def _budget(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in COMPILE_BUDGET.items():  # the compile-time bombs meet their limit in seconds
        monkeypatch.setenv(name, value)


def _problems(alone: dict, mixed: dict, name: str, expectation: str, detail: str | None) -> list[str]:
    from wapii_core.run.runner import load_dataset

    key = load_dataset("demo", None).samples[ATTACKER_TASK].id
    assert len(alone) == len(mixed) == 26
    problems = [f"{k} beside {name}: {mixed[k]['verdict']} {mixed[k]['error']} {mixed[k]['error_detail']}, "
                f"alone: {alone[k]['verdict']} {alone[k]['error']}"
                for k in alone if k != key
                if (mixed[k]["verdict"], mixed[k]["error"]) != (alone[k]["verdict"], alone[k]["error"])]
    problems += hostile_problems({key: (name, expectation)}, mixed, ("runtime_error", "timeout"))
    if detail is not None and not (mixed[key]["error_detail"] or "").startswith(detail):
        problems.append(f"{name}: expected {detail}..., got {mixed[key]['error_detail']}")
    return problems


def _expectation(adapter_name: str, name: str) -> str:
    path = (GO_RUN / f"{name}.go") if adapter_name == "nethttp_go" else (JAVA_RUN / f"{name}.java")
    return path.read_text().splitlines()[0].split("expect:", 1)[1].split("--", 1)[0].strip()


@pytest.mark.slow
@pytest.mark.parametrize("adapter_name", list(ATTACKS))
def test_each_compile_time_attack_beside_the_demos_25_ordinary_programs(adapter_name: str, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from wapii_core.run.runner import load_dataset

    _budget(monkeypatch)
    ordinary = _ordinary(adapter_name)
    alone = _run(tmp_path, "alone", adapter_name, _lines(ordinary, None))
    assert {r["verdict"] for r in alone.values()} >= {"correct"} and len({r["verdict"] for r in alone.values()}) > 1
    sample = load_dataset("demo", None).samples[ATTACKER_TASK]
    problems = []
    for name, detail in ATTACKS[adapter_name].items():
        mixed = _run(tmp_path, name, adapter_name, _lines(ordinary, _attacker(adapter_name, name, sample, tmp_path)))
        problems += _problems(alone, mixed, name, _expectation(adapter_name, name), detail)
    assert problems == [], "\n".join(problems)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(Path(sys.executable).parent / "wapii"), *args], capture_output=True, text=True,
                          env=dict(os.environ), timeout=1800)


@pytest.mark.slow
@pytest.mark.parametrize("adapter_name", list(RESUMED))
def test_a_run_with_a_compile_time_attack_resumes_and_evaluates_to_the_same_verdicts(
        adapter_name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from wapii_core.run.runner import load_dataset

    _budget(monkeypatch)
    name = RESUMED[adapter_name]
    ordinary = _ordinary(adapter_name)
    alone = _run(tmp_path, "alone", adapter_name, _lines(ordinary, None))
    sample = load_dataset("demo", None).samples[ATTACKER_TASK]
    generations = tmp_path / "mixed.jsonl"
    lines = _lines(ordinary, _attacker(adapter_name, name, sample, tmp_path))
    generations.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / "mixed"
    command = ["run", "-d", "demo", "-a", adapter_name, "-b", "replay", "-g", str(generations),
               "--mode", "wire", "-o", str(out), "-q"]
    first = _cli(*command)
    assert first.returncode == 0 and "Traceback" not in first.stderr, first.stderr[-2000:]
    judged = _results(out)
    again = _cli(*command)
    assert again.returncode == 0 and "Traceback" not in again.stderr, again.stderr[-2000:]
    assert _results(out) == judged
    evaluated = _cli("evaluate", str(out), "-q")  # every program compiled and run again
    assert evaluated.returncode == 0 and "Traceback" not in evaluated.stderr, evaluated.stderr[-2000:]
    for results in (judged, _results(out)):
        problems = _problems(alone, results, name, _expectation(adapter_name, name), ATTACKS[adapter_name][name])
        assert problems == [], "\n".join(problems)
