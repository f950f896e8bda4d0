"""The two request-validation engines side by side, end to end: ``wapii run --backend replay`` over corpus_a.

Usage: ``python benchmarks/bench_validation_engines.py [--corpus ../shared/conformance/corpus_a]
[--data-dir ../shared/wapiibench] [--rounds 7]``

Each round runs two fresh processes of the same command, one per engine, in alternating order so
that both see the same machine: ``compiled`` (as shipped: the compiled engine, openapi-core where it
does not cover an operation) and ``openapi-core`` (every request validated by openapi-core itself,
its per-request builders memoised per operation, ``openapi_core_engine._memoised``; the child forces
``engine="reference"`` before it calls the CLI, nothing in wapii is changed). The run applies the
default metric providers, ``spec_validation`` among them. Printed: the medians of wall time, CPU time
(the process and the descendants it waited for) and the seconds spent in ``spec_validation``'s
``aggregate``, and the ratio of the medians. Both runs' ``spec_validation`` summaries must be equal.

The rule it decides (issue 37): the compiled engine stays only while openapi-core, memoised, is
more than 1.3x slower end to end (wall).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ENGINES = ("compiled", "openapi-core")

_CHILD = r"""
import json, os, sys, time
from wapii_core.judge import spec_validation
from wapii_core.openapi.request_validation import OperationValidator

if os.environ["BENCH_ENGINE"] == "openapi-core":
    validate = OperationValidator.validate
    def reference(self, config, template, engine="auto"):
        return validate(self, config, template, engine="reference" if engine == "auto" else engine)
    OperationValidator.validate = reference

spent = [0.0]
aggregate = spec_validation.SpecValidation.aggregate
def timed(self, results, dataset):
    t = time.perf_counter()
    try:
        return aggregate(self, results, dataset)
    finally:
        spent[0] += time.perf_counter() - t
spec_validation.SpecValidation.aggregate = timed

import wapii_core.cli as cli
sys.argv = ["wapii", *sys.argv[1:]]
code = 0
try:
    cli.main()
except SystemExit as exc:
    code = exc.code or 0
with open(os.environ["BENCH_OUT"], "w") as fh:
    json.dump({"spec_validation": spent[0]}, fh)
sys.exit(code)
"""


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(engine: str, args: list[str], env: dict[str, str]) -> dict[str, float]:
    """One fresh process of ``wapii *args`` with ``engine``: wall, CPU and spec_validation seconds."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        env = {**env, "BENCH_ENGINE": engine, "BENCH_OUT": out.name}
        cpu, wall = _child_cpu(), time.perf_counter()
        done = subprocess.run([sys.executable, "-c", _CHILD, *args], env=env, cwd=env["WAPII_CACHE_DIR"],
                              capture_output=True, text=True)
        wall, cpu = time.perf_counter() - wall, _child_cpu() - cpu
        if done.returncode != 0:
            raise SystemExit(f"{engine}: wapii {' '.join(args)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
        inner = json.loads(Path(out.name).read_text())
    return {"wall": wall, "cpu": cpu, **inner}


def spec_validation_summary(run_dir: Path) -> object:
    """What the run's summary says under spec_validation (equal for both engines, or the benchmark stops)."""
    return json.loads((run_dir / "summary.json").read_text())["metrics"]["spec_validation"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    shared = Path(os.environ.get("WAPII_SHARED", REPO.parent / "shared"))
    parser.add_argument("--corpus", type=Path, default=shared / "conformance" / "corpus_a")
    parser.add_argument("--data-dir", type=Path, default=shared / "wapiibench")
    parser.add_argument("--rounds", type=int, default=7, help="fresh processes per engine (medians reported)")
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="wapii-bench-engines-"))
    try:
        (scratch / "cache").mkdir()
        env = {**os.environ, "WAPII_CACHE_DIR": str(scratch / "cache"), "PYTHONPYCACHEPREFIX": str(scratch / "pyc")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        replay = ["run", "--dataset", "wapiibench", "--data-dir", str(args.data_dir), "--backend", "replay",
                  "--generations", str(args.corpus), "--quiet", "--out"]
        summaries = {}
        for engine in ENGINES:  # untimed: fills the spec cache and the bytecode, and compares the answers
            measure(engine, [*replay, str(scratch / f"warm-up-{engine}")], env)
            summaries[engine] = spec_validation_summary(scratch / f"warm-up-{engine}")
        if summaries["compiled"] != summaries["openapi-core"]:
            raise SystemExit(f"the engines disagree:\n{summaries}")
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs")
        runs: dict[str, list[dict[str, float]]] = {engine: [] for engine in ENGINES}
        for i in range(args.rounds):
            for engine in (ENGINES if i % 2 == 0 else ENGINES[::-1]):
                runs[engine].append(measure(engine, [*replay, str(scratch / f"run-{engine}-{i}")], env))
        medians = {}
        for engine in ENGINES:
            medians[engine] = {k: statistics.median(run[k] for run in runs[engine]) for k in runs[engine][0]}
            walls = ", ".join(f"{run['wall']:.2f}" for run in runs[engine])
            print(f"{engine:>12}: wall {medians[engine]['wall']:.2f} s (runs: {walls}), "
                  f"CPU {medians[engine]['cpu']:.2f} s, spec_validation {medians[engine]['spec_validation']:.3f} s")
        ratio = {k: medians["openapi-core"][k] / medians["compiled"][k] for k in ("wall", "cpu")}
        print(f"openapi-core / compiled: wall {ratio['wall']:.2f}x, CPU {ratio['cpu']:.2f}x "
              f"(the compiled engine stays only above 1.30x wall)")
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
