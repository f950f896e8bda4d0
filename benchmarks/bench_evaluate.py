"""End-to-end judging speed: ``wapii run --backend replay`` over corpus_a and ``wapii evaluate`` of that run.

Usage: ``python benchmarks/bench_evaluate.py [--corpus ../shared/conformance/corpus_a]
[--data-dir ../shared/wapiibench] [--repeat 5] [--cold-cache]``

Every measurement is a fresh ``python -m wapii_core ...`` process (imports, dataset loading, worker
start-up and the per-user spec cache all count, as for a user), run ``--repeat`` times; the
medians are printed. Wall time is the parent's clock around the process; CPU time is user + system
of the process and every descendant it waited for (the sandboxed Node workers included).

The time split by stage comes from timers the child installs around the pipeline's functions
before it calls the CLI (nothing in wapii itself is changed): ``start`` (interpreter start-up and
importing the CLI), ``load`` (the dataset), ``generate`` (the replay backend reading the programs),
``execute`` (the adapter running the extracted calls), ``judge`` (extraction, normalising and
comparing, execution excluded), each metric provider's ``aggregate`` (``metric <name>``; work a
provider did earlier, in the background, is shown as ``metric <name> (background)`` and overlaps
the other stages), ``write`` (run directory files, summary and report) and ``other`` (the rest of
the process's life: CLI parsing, plugin loading, worker shutdown, interpreter exit).

``--cold-cache`` points ``WAPII_CACHE_DIR`` at an empty directory for every process (no spec
cache); by default one fresh cache directory is warmed by an untimed run first, as a user's is.
Compiled bytecode is cached as for an installed package (``PYTHONPYCACHEPREFIX`` in the scratch
directory, ``PYTHONDONTWRITEBYTECODE`` unset), also warmed by that first run.
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

_CHILD = r"""
import json, os, sys, time
start = time.perf_counter()
stages = {}

def add(stage, seconds):
    stages[stage] = stages.get(stage, 0.0) + seconds

def timed(owner, attr, stage):
    inner = getattr(owner, attr)
    def wrapper(*args, **kwargs):
        t = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            add(stage(args) if callable(stage) else stage, time.perf_counter() - t)
    setattr(owner, attr, wrapper)

import wapii_core.cli as cli
from wapii_core import plugins, runner, store

class _Proxy:
    def __init__(self, inner, name):
        self._inner, self._name = inner, name
    def __getattr__(self, attr):
        return getattr(self._inner, attr)

class _Provider(_Proxy):
    def aggregate(self, results, dataset):
        t = time.perf_counter()
        try:
            return self._inner.aggregate(results, dataset)
        finally:
            add(f"metric {self._name}", time.perf_counter() - t)

    def __getattr__(self, attr):
        inner = getattr(self._inner, attr)
        if attr != "prepare":
            return inner
        def prepare(dataset):
            t = time.perf_counter()
            try:
                return inner(dataset)
            finally:
                add(f"metric {self._name} (background)", time.perf_counter() - t)
        return prepare

class _Backend(_Proxy):
    def generate(self, chunk):
        t = time.perf_counter()
        out = list(self._inner.generate(chunk))
        add("generate", time.perf_counter() - t)
        return out

get_metric, get_backend = plugins.metrics.get, plugins.backends.get
plugins.metrics.get = lambda name: _Provider(get_metric(name), name)
plugins.backends.get = lambda name: (lambda *a, **k: _Backend(get_backend(name)(*a, **k), name))

timed(runner, "load_dataset", "load")
timed(runner, "finish", "finish")
timed(runner.Judge, "__call__", "judge+execute")
judge_init = runner.Judge.__init__
def init(self, adapter, *args, **kwargs):
    judge_init(self, adapter, *args, **kwargs)
    execute = adapter.execute
    def timed_execute(calls):
        t = time.perf_counter()
        try:
            return execute(calls)
        finally:
            add("execute", time.perf_counter() - t)
    adapter.execute = timed_execute
runner.Judge.__init__ = init
for method in ("open", "add_generation", "add_result", "reset_results", "close"):
    timed(store.RunStore, method, "write")
add("start", time.perf_counter() - start + float(os.environ["BENCH_STARTED"]))
sys.argv = ["wapii", *sys.argv[1:]]
code = 0
try:
    cli.main()
except SystemExit as exc:
    code = exc.code or 0
stages["judge"] = stages.pop("judge+execute", 0.0) - stages.get("execute", 0.0)
metrics = sum(v for k, v in stages.items() if k.startswith("metric "))
stages["write"] = stages.get("write", 0.0) + stages.pop("finish", 0.0) - metrics
stages["total in process"] = time.perf_counter() - start + float(os.environ["BENCH_STARTED"])
with open(os.environ["BENCH_STAGES"], "w") as fh:
    json.dump(stages, fh)
sys.exit(code)
"""


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(args: list[str], env: dict[str, str]) -> dict[str, float]:
    """One fresh process: wall, CPU and the stage split."""
    with tempfile.NamedTemporaryFile(suffix=".json") as stages_file:
        # the child's interpreter start-up before its first line counts as "start": estimated by a bare run
        env = {**env, "BENCH_STAGES": stages_file.name, "BENCH_STARTED": str(_bare_start(env))}
        cpu, wall = _child_cpu(), time.perf_counter()
        done = subprocess.run([sys.executable, "-c", _CHILD, *args], env=env, cwd=REPO, capture_output=True, text=True)
        wall, cpu = time.perf_counter() - wall, _child_cpu() - cpu
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
        stages = json.loads(Path(stages_file.name).read_text())
    return {"wall": wall, "cpu": cpu, **stages}


_BARE: dict[str, float] = {}


def _bare_start(env: dict[str, str]) -> float:
    """How long an interpreter takes to reach its first line (measured once)."""
    if "t" not in _BARE:
        runs = []
        for _ in range(3):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
            runs.append(time.perf_counter() - t)
        _BARE["t"] = min(runs)
    return _BARE["t"]


def report(title: str, runs: list[dict[str, float]]) -> None:
    keys = [k for k in runs[0] if k not in ("wall", "cpu")]
    for run in runs[1:]:
        keys += [k for k in run if k not in keys and k not in ("wall", "cpu")]
    median = {k: statistics.median(run.get(k, 0.0) for run in runs) for k in ["wall", "cpu", *keys]}
    accounted = sum(v for k, v in median.items() if k not in ("wall", "cpu", "total in process")
                    and not k.endswith("(background)"))
    median["other"] = max(0.0, median.get("total in process", 0.0) - accounted)
    walls = ", ".join(f"{run['wall']:.2f}" for run in runs)
    print(f"{title}: wall {median['wall']:.2f} s (runs: {walls}), CPU {median['cpu']:.2f} s")
    order = ["start", "load", "generate", "execute", "judge"] + sorted(k for k in median if k.startswith("metric ")) \
        + ["write", "other"]
    for key in order:
        if key in median:
            print(f"  {key:<34} {median[key]:6.3f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    shared = Path(os.environ.get("WAPII_SHARED", REPO.parent / "shared"))
    parser.add_argument("--corpus", type=Path, default=shared / "conformance" / "corpus_a")
    parser.add_argument("--data-dir", type=Path, default=shared / "wapiibench")
    parser.add_argument("--repeat", type=int, default=5, help="fresh processes per command (medians reported)")
    parser.add_argument("--cold-cache", action="store_true", help="an empty WAPII_CACHE_DIR for every process")
    parser.add_argument("--only", choices=("run", "evaluate"), help="measure one of the two commands")
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="wapii-bench-evaluate-"))
    try:
        env = {**os.environ, "WAPII_CACHE_DIR": str(scratch / "cache"), "PYTHONPYCACHEPREFIX": str(scratch / "pyc")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        replay = ["run", "--dataset", "wapiibench", "--data-dir", str(args.data_dir), "--backend", "replay",
                  "--generations", str(args.corpus), "--quiet", "--out"]

        def fresh_env() -> dict[str, str]:
            if not args.cold_cache:
                return env
            cache = Path(tempfile.mkdtemp(prefix="cache-", dir=scratch))
            return {**env, "WAPII_CACHE_DIR": str(cache)}

        measure([*replay, str(scratch / "warm-up")], env)  # fills the spec cache; the run directory for evaluate
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs; "
              f"{'empty' if args.cold_cache else 'warm'} spec cache")
        if args.only != "evaluate":
            runs = [measure([*replay, str(scratch / f"run-{i}")], fresh_env()) for i in range(args.repeat)]
            report(f"wapii run --backend replay ({args.corpus.name})", runs)
        if args.only != "run":
            runs = [measure(["evaluate", str(scratch / "warm-up"), "--quiet"], fresh_env())
                    for _ in range(args.repeat)]
            report("wapii evaluate (the same run)", runs)
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
