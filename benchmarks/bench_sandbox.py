"""Throughput of sandboxed execution, side by side in one run: isolated vs bare worker vs one process each.

For JavaScript (the axios_js Node workers) and Python (``wapii_core.sandbox.PythonPool`` with the
sandbox tests' urllib harness), on the same snippets:

1. **isolated**: the pools as wapii runs them: every layer available here (bubblewrap, privilege
   drop, rlimits, clean environment; Node's permission model and hardening flags; seccomp, the
   audit hook, Landlock and a process per snippet for Python);
2. **bare worker**: the same persistent worker processes on the same supervisor, without the
   sandbox's wrapping (no bubblewrap, no drop, no rlimits; no seccomp filter or Landlock in Python);
3. **one process per snippet**: a fresh ``node -`` (the reference pipeline's way) or ``python -c``
   per snippet, timed on ``--per-process`` snippets and extrapolated.

Workers are started before timing (their start-up is printed separately). Each rate is given in
wall time and as "CPU capacity": snippets per second if the CPU time that this process and its
workers used were spread over every CPU of the machine (what the wall rate would be on an idle
machine; on a shared one the wall rate depends on the other load). Then, if
``../shared/conformance/corpus_a`` exists, the wall time of extracting and executing its 395
programs with a fresh adapter (start-up included). Targets: >= 150 JavaScript and >= 300 Python
snippets/s isolated, corpus_a in < 5 s.

``--landlock`` instead measures what Landlock costs where it matters most, without bubblewrap: the
isolated pools started with and without it (``WAPII_LANDLOCK=0``), their rates taken in
interleaved rounds (best of ``--rounds``), worker start-up, and the cost of confining one forked
process (what each Python snippet process pays; the ruleset is prepared once per worker).

    .venv/bin/python benchmarks/bench_sandbox.py [--snippets 600] [--workers N] [--per-process 20]
    .venv/bin/python benchmarks/bench_sandbox.py --landlock [--snippets 600] [--rounds 3]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))  # the sandbox tests' harness, importable by the Python workers

from wapii_core.sandbox import Plan, PythonPool, Supervisor, bwrap, clean_env, default_worker_count  # noqa: E402
from wapii_core.sandbox import landlock  # noqa: E402

PY_HARNESS = "hostile.harness:run_snippet"
JS_TARGET, PY_TARGET, CORPUS_TARGET_S = 150, 300, 5.0


def js_snippets(count: int) -> list[str]:
    """Extracted calls: the oracle's programs for the bundled demo dataset, repeated."""
    from wapii_core.base import plugins
    from wapii_core.base.setups import CALL_SETUPS

    dataset = plugins.datasets.get("demo")(None)
    adapter = plugins.adapters.get("axios_js")()
    calls = [adapter.extract(adapter.render(s.config, setup, s)).call for s in dataset.samples for setup in CALL_SETUPS]
    adapter.close()
    return [calls[i % len(calls)] for i in range(count)]


def py_snippets(count: int) -> list[str]:
    return [f'urlopen(Request("https://api.example.com/v1/items/{i}?limit={i % 50}", '
            f'headers={{"Authorization": "Bearer t{i}"}}, data=b"name=n{i}", method="POST"))\n' for i in range(count)]


TICK = os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds() -> float:
    """CPU seconds used so far by this process and every live process below it (with their reaped children)."""
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        used[int(entry.name)] = sum(int(value) for value in fields[11:15]) / TICK
    mine, pending = {os.getpid()}, [os.getpid()]
    while pending:
        parent = pending.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in mine:
                mine.add(pid)
                pending.append(pid)
    own = os.times()
    return own.user + own.system + sum(used.get(pid, 0.0) for pid in mine - {os.getpid()})


@dataclass
class Rate:
    """Snippets per second of wall time, and per second of CPU spread over every CPU of the machine."""

    wall: float
    capacity: float

    def __str__(self) -> str:
        return f"{self.wall:8.0f} snippets/s wall, {self.capacity:6.0f}/s CPU capacity"


def rate(run: Callable[[list[str]], list[Any]], snippets: list[str]) -> tuple[Rate, list[Any]]:
    start, cpu = time.perf_counter(), tree_cpu_seconds()
    results = run(snippets)
    wall, used = time.perf_counter() - start, tree_cpu_seconds() - cpu
    return Rate(len(snippets) / wall, len(snippets) * (os.cpu_count() or 1) / used), results


def timed_start(run: Callable[[list[str]], list[Any]], warm: list[str]) -> float:
    start = time.perf_counter()
    run(warm)
    return time.perf_counter() - start


def bare(name: str, argv: list[str], env: dict[str, str], workers: int, timeout: float,
         init: dict[str, Any] | None = None) -> Supervisor:
    """The same worker on the same supervisor, started without any sandbox layer."""
    return Supervisor(f"bench-{name}", lambda: Plan(argv=argv, env=env, limits={}, layers=[]), size=workers,
                      timeout=timeout, init=init)


def node_per_process(calls: list[str], runtime: Path) -> float:
    """Snippets/s of one ``node -`` per snippet (mock set up first, as the reference did)."""
    from wapii_core.sandbox.node import find_node, js_dir

    setup = ("const axios = require('axios'); const MockAdapter = require('axios-mock-adapter');\n"
             "const mock = new MockAdapter(axios); mock.onAny().reply(200);\n")
    node = find_node()
    start = time.perf_counter()
    for call in calls:
        subprocess.run([node, "-"], input=setup + call, text=True, capture_output=True, cwd=runtime, env=clean_env())
    assert js_dir().is_dir()
    return len(calls) / (time.perf_counter() - start)


def python_per_process(snippets: list[str]) -> float:
    """Snippets/s of one ``python -c`` (importing the harness) per snippet."""
    env = {**clean_env(), "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    start = time.perf_counter()
    for code in snippets:
        program = f"import hostile.harness as h\ntry:\n    h.run_snippet({code!r})\nexcept Exception:\n    pass\n"
        subprocess.run([sys.executable, "-c", program], capture_output=True, env=env)
    return len(snippets) / (time.perf_counter() - start)


def bench_js(count: int, workers: int, per_process: int) -> Rate:
    from wapii_axios_js.runtime import library
    from wapii_core.sandbox.node import NodePool, ensure_runtime

    calls = js_snippets(count)
    runtime = ensure_runtime(library())
    isolated = NodePool(library(), runtime, size=workers, timeout_s=2.0)
    program, _ = isolated.program()
    plain = bare("node", program.argv, program.env, workers, 2.0)
    try:
        started = timed_start(isolated.run, calls[:workers * 4])
        plain_started = timed_start(lambda c: plain.run([{"code": x, "keep": "last"} for x in c]), calls[:workers * 4])
        fast, captures = rate(isolated.run, calls)
        assert all("request" in c for c in captures), [c for c in captures if "request" not in c][:3]
        base, _ = rate(lambda c: plain.run([{"code": x, "keep": "last"} for x in c]), calls)
    finally:
        isolated.close()
        plain.close()
    each = node_per_process(calls[:per_process], runtime)
    print(f"JavaScript (axios_js), {workers} workers, {count} snippets:")
    print(f"  isolated                {fast}   (workers started in {started:.2f} s)")
    print(f"  bare worker             {base}   (workers started in {plain_started:.2f} s)")
    print(f"  one process per snippet {each:8.1f} snippets/s wall (measured on {per_process})")
    return fast


def bench_python(count: int, workers: int, per_process: int) -> Rate:
    snippets = py_snippets(count)
    isolated = PythonPool(preload=["urllib.request"], harness=PY_HARNESS, workers=workers, warmup=snippets[:1])
    program = isolated.program()
    plain = bare("python", program.argv, program.env, workers, 2.0,
                 {**isolated.worker_config(), "seccomp": False, "landlock": None})
    try:
        started = timed_start(isolated.run, snippets[:workers * 4])
        plain_started = timed_start(lambda s: plain.run([{"code": x} for x in s]), snippets[:workers * 4])
        fast, results = rate(isolated.run, snippets)
        assert all(r.ok for r in results), [r for r in results if not r.ok][:3]
        base, _ = rate(lambda s: plain.run([{"code": x} for x in s]), snippets)
    finally:
        isolated.close()
        plain.close()
    each = python_per_process(snippets[:per_process])
    print(f"Python (PythonPool, urllib harness), {workers} workers, {count} snippets:")
    print(f"  isolated                {fast}   (workers started in {started:.2f} s)")
    print(f"  bare worker             {base}   (workers started in {plain_started:.2f} s)")
    print(f"  one process per snippet {each:8.1f} snippets/s wall (measured on {per_process})")
    return fast


def bench_corpus() -> float | None:
    """Wall seconds to extract and execute corpus_a with a fresh adapter, or None without the data."""
    from wapii_axios_js.adapter import AxiosAdapter

    shared = Path(os.environ.get("WAPII_SHARED") or REPO.parent / "shared")
    programs = sorted((shared / "conformance" / "corpus_a").glob("*/*_code.js"))
    if not programs:
        return None
    start = time.perf_counter()
    with AxiosAdapter() as adapter:
        calls = [e.call for e in (adapter.extract(p.read_text()) for p in programs) if e.call is not None]
        adapter.execute(calls)
    seconds = time.perf_counter() - start
    print(f"corpus_a: {len(programs)} programs, {len(calls)} calls extracted and executed in {seconds:.2f} s "
          "(fresh adapter, worker start-up included)")
    return seconds


@contextlib.contextmanager
def layer_switches(with_landlock: bool) -> Iterator[None]:
    """Pools created (and started) inside run without bubblewrap, with or without Landlock."""
    saved = {name: os.environ.get(name) for name in (bwrap.BWRAP_ENV, landlock.ENV)}
    os.environ[bwrap.BWRAP_ENV] = ""
    os.environ[landlock.ENV] = "1" if with_landlock else "0"
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def confine_cost(forks: int = 400) -> tuple[float, float]:
    """Milliseconds per fork + exit, without and with restricting the forked process by a prepared
    ruleset (alternating, so that both see the same load)."""
    ruleset = landlock.prepare(landlock.Policy.of([sys.prefix, sys.base_prefix, *bwrap.SYSTEM_PATHS, *landlock.DEVICES]))
    spent = {False: 0.0, True: 0.0}
    for n in range(forks):
        confine = bool(n % 2)
        start = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            if confine:
                ruleset.restrict()
            os._exit(0)
        os.waitpid(pid, 0)
        spent[confine] += time.perf_counter() - start
    ruleset.close()
    return spent[False] / (forks / 2) * 1000, spent[True] / (forks / 2) * 1000


def bench_landlock(count: int, workers: int, rounds: int) -> None:
    """Isolated pools without bubblewrap, with and without Landlock, side by side (best of ``rounds``)."""
    from wapii_axios_js.runtime import library
    from wapii_core.sandbox.node import NodePool, ensure_runtime

    if landlock.unavailable():
        raise SystemExit(f"error: Landlock: {landlock.unavailable()}")
    calls, snippets = js_snippets(count), py_snippets(count)
    pools: dict[str, tuple[Callable[[list[str]], list[Any]], list[str], Callable[[], None]]] = {}
    starts: dict[str, float] = {}
    for with_landlock in (True, False):
        label = "Landlock" if with_landlock else "no Landlock"
        with layer_switches(with_landlock):
            node = NodePool(library(), ensure_runtime(library()), size=workers, timeout_s=2.0)
            python = PythonPool(preload=["urllib.request"], harness=PY_HARNESS, workers=workers, warmup=snippets[:1])
            starts[f"JavaScript, {label}"] = timed_start(node.run, calls[:workers * 4])
            starts[f"Python, {label}"] = timed_start(python.run, snippets[:workers * 4])
        assert any(layer.name == "landlock (worker)" and layer.active == with_landlock
                   for layer in node.isolation().layers)
        pools[f"JavaScript, {label}"] = (node.run, calls, node.close)
        pools[f"Python, {label}"] = (python.run, snippets, python.close)
    best: dict[str, Rate] = {}
    try:
        for _ in range(rounds):
            for name, (run, items, _) in pools.items():
                measured, _results = rate(run, items)
                if name not in best or measured.wall > best[name].wall:
                    best[name] = measured
    finally:
        for _, _, close in pools.values():
            close()
    print(f"without bubblewrap, {workers} workers, {count} snippets, best of {rounds} interleaved rounds "
          f"(Landlock ABI {landlock.abi()}):")
    for name, measured in best.items():
        print(f"  {name:24} {measured}   (workers started in {starts[name]:.2f} s)")
    bare_fork, confined_fork = confine_cost()
    print(f"  one fork + exit: {bare_fork:.3f} ms; with Landlock restriction: {confined_fork:.3f} ms "
          f"(+{(confined_fork - bare_fork) * 1000:.0f} us per snippet process)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--snippets", type=int, default=600)
    parser.add_argument("--workers", type=int, default=default_worker_count())
    parser.add_argument("--per-process", type=int, default=20)
    parser.add_argument("--landlock", action="store_true", help="compare with and without Landlock (no bubblewrap)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    if args.landlock:
        bench_landlock(args.snippets, args.workers, args.rounds)
        print(f"load average after: {os.getloadavg()[0]:.2f}")
        return
    js = bench_js(args.snippets, args.workers, args.per_process)
    py = bench_python(args.snippets, args.workers, args.per_process)
    corpus = bench_corpus()
    verdicts = [f"JavaScript {js.wall:.0f}/s (target >= {JS_TARGET}): {'ok' if js.wall >= JS_TARGET else 'MISSED'}",
                f"Python {py.wall:.0f}/s (target >= {PY_TARGET}): {'ok' if py.wall >= PY_TARGET else 'MISSED'}"]
    if corpus is not None:
        verdicts.append(f"corpus_a {corpus:.2f} s (target < {CORPUS_TARGET_S:g} s): "
                        f"{'ok' if corpus < CORPUS_TARGET_S else 'MISSED'}")
    print("targets: " + "; ".join(verdicts))
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
