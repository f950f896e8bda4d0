"""End-to-end judging speed: ``wapii run --backend replay`` over corpus_a and ``wapii evaluate`` of that run.

Usage: ``python benchmarks/bench_evaluate.py [--corpus ../shared/conformance/corpus_a]
[--data-dir ../shared/wapiibench] [--repeat 5] [--cold-cache] [--only run|evaluate] [--baseline TREE]``

Every measurement is a fresh process running the CLI with the given arguments (imports, dataset
loading, worker start-up and the per-user spec cache all count, as for a user), run ``--repeat``
times; the medians are printed. Wall time is the parent's clock around the process; CPU time is
user + system of the process and the descendants it waited for, which leaves out the sandboxed
Node workers (bubblewrap reaps them in their own PID namespace).

The time split by stage comes from timers the child installs around the pipeline's functions
before it calls the CLI (nothing in wapii itself is changed): ``start`` (interpreter start-up and
importing the CLI), ``load`` (the dataset), ``generate`` (the replay backend reading the programs),
``execute`` (the adapter running the extracted calls), ``judge`` (extraction, normalising and
comparing, execution excluded), each metric provider's ``aggregate`` (``metric <name>``),
``write`` (run directory files, summary and report) and ``other`` (the rest of the process's
life until the CLI returns: CLI parsing, plugin loading, prompts, worker shutdown; starting the
workers counts as ``execute``). Interpreter exit is in the wall time only.

``--cold-cache`` points ``WAPII_CACHE_DIR`` at an empty directory for every process (no spec
cache); by default one fresh cache directory is warmed by an untimed run first, as a user's is.
Compiled bytecode is cached as for an installed package (``PYTHONPYCACHEPREFIX`` in the scratch
directory, ``PYTHONDONTWRITEBYTECODE`` unset), also warmed by that first run.

``--baseline TREE`` measures another source tree of wapii the same way (each with its own spec
cache), interleaved run by run with this one so that both see the same machine, and prints the
ratio of the medians: e.g. ``git archive <commit> | tar -x -C /tmp/before`` then
``--baseline /tmp/before``. The children import wapii from the tree through ``PYTHONPATH``.
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

import importlib
import wapii_core.cli as cli
from wapii_core.base import plugins
from wapii_core.run import runner
import wapii_core.store.rundir as store

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


class _Backend(_Proxy):
    def generate(self, chunk):
        t = time.perf_counter()
        out = list(self._inner.generate(chunk))
        add("generate", time.perf_counter() - t)
        return out

get_metric, get_backend = plugins.metrics.get, plugins.backends.get
plugins.metrics.get = lambda name: _Provider(get_metric(name), name)
plugins.backends.get = lambda name: (lambda *a, **k: _Backend(get_backend(name)(*a, **k), name))

# the stages live in runner.py in older trees, in the pipeline's own modules (run.plan, run.aggregate) since the split
for name in ("wapii_core.run.runner", "wapii_core.run.plan", "wapii_core.run.aggregate"):
    try:
        module = importlib.import_module(name)
    except ImportError:
        continue
    for attr, stage in (("load_dataset", "load"), ("finish", "finish")):
        if attr in vars(module):  # every module that calls it by its own global (a wrapper wraps the original)
            timed(module, attr, stage)
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
        # run outside any source tree: ``python -c`` puts its working directory first on sys.path
        done = subprocess.run([sys.executable, "-c", _CHILD, *args], env=env, cwd=env["WAPII_CACHE_DIR"],
                              capture_output=True, text=True)
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
            subprocess.run([sys.executable, "-c", "pass"], env=env, cwd=env["WAPII_CACHE_DIR"], check=True)
            runs.append(time.perf_counter() - t)
        _BARE["t"] = min(runs)
    return _BARE["t"]


def report(title: str, runs: list[dict[str, float]]) -> dict[str, float]:
    """Print the medians of ``runs`` (wall, CPU, each stage); return them."""
    keys = [k for k in runs[0] if k not in ("wall", "cpu")]
    for run in runs[1:]:
        keys += [k for k in run if k not in keys and k not in ("wall", "cpu")]
    median = {k: statistics.median(run.get(k, 0.0) for run in runs) for k in ["wall", "cpu", *keys]}
    accounted = sum(v for k, v in median.items() if k not in ("wall", "cpu", "total in process"))
    median["other"] = max(0.0, median.get("total in process", 0.0) - accounted)
    walls = ", ".join(f"{run['wall']:.2f}" for run in runs)
    print(f"{title}: wall {median['wall']:.2f} s (runs: {walls}), CPU {median['cpu']:.2f} s")
    order = ["start", "load", "generate", "execute", "judge"] + sorted(k for k in median if k.startswith("metric ")) \
        + ["write", "other"]
    for key in order:
        if key in median:
            print(f"  {key:<34} {median[key]:6.3f} s")
    return median


def tree_path(tree: Path) -> str:
    """PYTHONPATH entries that make a child import wapii and its plugins from the source tree ``tree``."""
    parts = [tree, *(tree / "plugins" / name for name in ("axios_js", "requests_py", "hf_models", "openai_models"))]
    return os.pathsep.join(str(p) for p in parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    shared = Path(os.environ.get("WAPII_SHARED", REPO.parent / "shared"))
    parser.add_argument("--corpus", type=Path, default=shared / "conformance" / "corpus_a")
    parser.add_argument("--data-dir", type=Path, default=shared / "wapiibench")
    parser.add_argument("--repeat", type=int, default=5, help="fresh processes per command (medians reported)")
    parser.add_argument("--cold-cache", action="store_true", help="an empty WAPII_CACHE_DIR for every process")
    parser.add_argument("--only", choices=("run", "evaluate"), help="measure one of the two commands")
    parser.add_argument("--baseline", type=Path, help="another source tree of wapii (e.g. `git archive` of an "
                        "older commit): measured interleaved with this one, with the ratio of the medians")
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="wapii-bench-evaluate-"))
    try:
        trees = {"this tree": tree_path(REPO)}
        if args.baseline is not None:
            trees["baseline"] = tree_path(args.baseline.resolve())
        envs = {}
        for name, path in trees.items():
            label = name.replace(" ", "-")
            (scratch / f"cache-{label}").mkdir()
            env = {**os.environ, "WAPII_CACHE_DIR": str(scratch / f"cache-{label}"),
                   "PYTHONPYCACHEPREFIX": str(scratch / "pyc"),
                   "PYTHONPATH": os.pathsep.join(filter(None, [path, os.environ.get("PYTHONPATH")]))}
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            envs[name] = env
        replay = ["run", "--dataset", "wapiibench", "--data-dir", str(args.data_dir), "--backend", "replay",
                  "--generations", str(args.corpus), "--quiet", "--out"]

        def fresh_env(name: str) -> dict[str, str]:
            if not args.cold_cache:
                return envs[name]
            cache = Path(tempfile.mkdtemp(prefix="cache-", dir=scratch))
            return {**envs[name], "WAPII_CACHE_DIR": str(cache)}

        for name in trees:  # fills the spec cache and the bytecode; the run directory that evaluate re-scores
            measure([*replay, str(scratch / f"warm-up-{name.replace(' ', '-')}")], envs[name])
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs; "
              f"{'empty' if args.cold_cache else 'warm'} spec cache")
        commands = {
            f"wapii run --backend replay ({args.corpus.name})":
                lambda name, i: [*replay, str(scratch / f"run-{name.replace(' ', '-')}-{i}")],
            "wapii evaluate (a run of the same)":
                lambda name, i: ["evaluate", str(scratch / f"warm-up-{name.replace(' ', '-')}"), "--quiet"],
        }
        for title, command in commands.items():
            if args.only and not title.startswith(f"wapii {args.only}"):
                continue
            runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
            for i in range(args.repeat):  # interleaved, so that both see the same machine
                for name in trees:
                    runs[name].append(measure(command(name, i), fresh_env(name)))
            medians = {name: report(f"{title}, {name}" if len(trees) > 1 else title, runs[name]) for name in trees}
            if len(trees) > 1:
                print(f"  baseline / this tree: wall {medians['baseline']['wall'] / medians['this tree']['wall']:.2f}x, "
                      f"CPU {medians['baseline']['cpu'] / medians['this tree']['cpu']:.2f}x")
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
