"""Hostile Go programs in a real run (``tests/hostile/go_run``), judged from outside the sandbox.

Each program replaces one sample's generation in a replay run of ``nethttp_go`` on WAPIIBench, with
and without bubblewrap: it forges the capture (a transport, dialer or round tripper of its own,
garbage or another sample's request written into capture channels, a request raced by goroutines,
reflection and ``unsafe``), tries to escape (exec, file writes, TCP, UDP and raw sockets, host
secrets, signals), to touch another sample (package initialisation linked into every program, a
detached process left behind) or to exhaust the host (fork and goroutine bombs, memory, disk, an
endless loop), or attacks the build (a build constraint that drops its file from the shared
package, a constant that exhausts the compiler, an expression that stalls the preparation, reading
the batches' sources). The run must end with ``summary.json`` and ``report.md``; no hostile sample may be
judged correct; every ordinary sample between them (one worker, so each runs right after a hostile
one, all compiled in the same batch) must get the verdict it gets in a run without them; no canary
may trip (files, connections, stored secrets, leftover or marked processes, mounts).

A program's first line says what it must get: ``// expect: <kind> -- why``, ``<kind>`` one of
``not_correct`` or ``runtime_error``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from hostile.fixtures import canaries, sandbox_user  # noqa: F401 - fixtures
from hostile.canaries import Canaries
from support import WAPIIBENCH, benign_problems, hostile_problems, needs_shared
from wapii_core.sandbox import bwrap

CORPUS = Path(__file__).resolve().parent / "hostile" / "go_run"
TIMEOUT_S = "1"
"""Each program's limit: the endless loop and the bombs wait it out once per run; an ordinary program
(a compiled executable) ends far within it."""

COMPILE_BUDGET = {"WAPII_COMPILE_MEMORY_MB": "384", "WAPII_COMPILE_BASE_S": "6", "WAPII_COMPILE_PER_PROGRAM_S": "0.1"}
"""A small compile budget, far above what an ordinary batch needs: the programs that attack the
compiler (memory, time) reach it within seconds instead of minutes."""

COMPILE_LIMIT = ("22_constant_doubling_exhausts_the_compiler", "23_flat_expression_stalls_the_preparation")
"""The programs that must meet the compile budget (their detail ``compile_limit: ...``), not merely fail."""

pytestmark = needs_shared("wapiibench", "dataset.json")

# Go's build cache is content-addressed: the session shares the user's (the standard library compiled
# with the capture overlay once, not once per session's fresh wapii cache)
os.environ.setdefault("WAPII_GO_BUILD_CACHE", str(Path(os.environ.get("WAPII_CACHE_DIR") or Path.home() / ".cache"
                                                         / "wapii") / "go" / "build-cache"))


def _programs() -> list[tuple[str, str, str]]:
    out = []
    for path in sorted(CORPUS.glob("*.go")):
        text = path.read_text()
        expect = text.splitlines()[0].split("expect:", 1)[1].split("--", 1)[0].strip()
        out.append((path.stem, expect, text))
    return out


def _replay(tmp_path: Path, name: str, lines: list[dict[str, str]], limit: int) -> tuple[Any, dict[str, Any]]:
    from wapii_core.run.runner import RunConfig, run

    generations = tmp_path / f"{name}.jsonl"
    generations.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / name
    summary = run(RunConfig(dataset="wapiibench", data_dir=WAPIIBENCH, adapter="nethttp_go", backend="replay",
                            generations=generations, limit=limit, mode="wire"), out)
    assert (out / "summary.json").is_file() and (out / "report.md").is_file()
    results = {r["sample"]: r for r in map(json.loads, (out / "results.jsonl").read_text().split("\n")[:-1])}
    return summary, results


@pytest.mark.slow
@pytest.mark.parametrize("layers", ["bubblewrap", "no-bubblewrap"])
def test_go_hostile_programs_in_a_run(layers: str, canaries: Canaries, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from wapii_core.base import plugins
    from wapii_core.base.model import Setup
    from wapii_core.run.runner import load_dataset

    if "nethttp_go" not in plugins.adapters.names():
        pytest.skip("adapter nethttp_go is not installed")
    if layers == "no-bubblewrap":
        monkeypatch.setenv(bwrap.BWRAP_ENV, "")
    monkeypatch.setenv("WAPII_NETHTTP_GO_WORKERS", "1")  # each ordinary program runs right after a hostile one
    monkeypatch.setenv("WAPII_NETHTTP_GO_TIMEOUT", TIMEOUT_S)
    for name, value in COMPILE_BUDGET.items():  # the compile-time bombs meet their limit in seconds
        monkeypatch.setenv(name, value)
    programs = _programs()
    dataset = load_dataset("wapiibench", WAPIIBENCH)
    samples = dataset.samples[: 3 * len(programs)]
    hostile, ordinary = samples[0::2][: len(programs)], samples[1::2][: len(programs)]
    assert len(hostile) == len(ordinary) == len(programs)
    adapter = plugins.adapters.get("nethttp_go")()
    benign = {}
    for n, sample in enumerate(ordinary):
        program = adapter.render(sample.config, Setup.full, sample)
        quoted = json.dumps(sample.config["url"])
        benign[sample.id] = program if n % 2 == 0 else program.replace(quoted, quoted[:-1] + '/extra"', 1)
    limit = max(samples.index(s) for s in hostile + ordinary) + 1

    _, alone = _replay(tmp_path, "alone", [{"sample": sid, "code": code} for sid, code in benign.items()], limit)
    lines, expect = [], {}
    for (name, expectation, template), sample, following in zip(programs, hostile, ordinary):
        code = (template.replace("__EXPECTED_URL__", sample.config["url"])
                .replace("__NEXT_URL__", following.config["url"])
                .replace("__NEXT_METHOD__", following.config["method"].upper())
                .replace("__CANARY_DIR__", str(canaries.directory))
                .replace("__CANARY_PORT__", str(canaries.port))
                .replace("__MARKER__", canaries.marker)
                .replace("__DATASET__", str(WAPIIBENCH / "dataset.json")))
        lines += [{"sample": sample.id, "code": code}, {"sample": following.id, "code": benign[following.id]}]
        expect[sample.id] = (name, expectation)
    summary, mixed = _replay(tmp_path, "mixed", lines, limit)

    assert summary.judged == len(lines)
    assert {alone[sid]["verdict"] for sid in benign} == {"correct", "illegal"}  # both kinds of ordinary program ran
    problems = benign_problems(benign, alone, mixed) + hostile_problems(expect, mixed)
    problems += [f"{name}: {mixed[sid]['error_detail']}" for sid, (name, _) in expect.items()
                 if name in COMPILE_LIMIT and not (mixed[sid]["error_detail"] or "").startswith("compile_limit: ")]
    assert problems == [], "\n".join(problems)
    stored = [path.read_text(errors="replace") for path in tmp_path.rglob("*") if path.is_file()]
    assert canaries.violations(stored) == []
