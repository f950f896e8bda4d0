"""Execution throughput of the Python adapters' sandboxed workers, beside axios_js's Node workers.

Renders the expected request of every WAPIIBench task (395) as a program for each adapter (the
``oracle`` backend's programs, full-completion setup), extracts the calls and executes them through
the adapter's worker pool. For each adapter it prints the wall time of one batch with the pool
started cold (start-up included), of a second batch on the warm pool, snippets per second, and
whether every capture was a request. Target: under 5 s wall for each Python adapter, cold, on the
project's 2-core machine. Last, the harness alone (no sandbox, one core, in this process) on the
same calls: the part of each snippet's time that is the adapter's own.

    .venv/bin/python benchmarks/bench_python_adapters.py [--data-dir ../shared/wapiibench] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from wapii_core.base import plugins
from wapii_core.base.model import Setup
from wapii_core.run.runner import load_dataset

REPO = Path(__file__).resolve().parents[1]
ADAPTERS = ("requests_py", "httpx_py", "aiohttp_py", "axios_js")
TARGET_S = 5.0


def default_data_dir() -> Path:
    shared = Path(os.environ.get("WAPII_SHARED") or REPO.parent / "shared")
    return shared / "wapiibench"


def measure(name: str, data_dir: Path, workers: int | None) -> dict[str, float | int | str]:
    """Cold and warm wall times of executing every task's rendered call with adapter ``name``."""
    dataset = load_dataset("wapiibench", data_dir)
    factory = plugins.adapters.get(name)
    adapter = factory(workers=workers) if workers else factory()
    try:
        programs = [adapter.render(s.config, Setup.full, s) for s in dataset.samples]
        start = time.perf_counter()
        calls = [call for call in (adapter.extract(p).call for p in programs) if call is not None]
        captures = adapter.execute(calls)
        cold = time.perf_counter() - start
        start = time.perf_counter()
        adapter.execute(calls)
        warm = time.perf_counter() - start
    finally:
        adapter.close()
    captured = sum(c.request is not None for c in captures)
    return {"adapter": name, "calls": len(calls), "captured": captured, "cold_s": cold, "warm_s": warm}


def harness_only(data_dir: Path) -> tuple[int, float]:
    """Seconds to run every requests_py call through the harness in this process (mocks started for good)."""
    from wapii_requests_py.harness import run_snippet

    dataset = load_dataset("wapiibench", data_dir)
    adapter = plugins.adapters.get("requests_py")()
    calls = [adapter.extract(adapter.render(s.config, Setup.full, s)).call for s in dataset.samples]
    run_snippet(calls[0])
    start = time.perf_counter()
    for call in calls:
        run_snippet(call)
    return len(calls), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, default=default_data_dir())
    parser.add_argument("--workers", type=int, default=None, help="workers per adapter (default: one per CPU)")
    parser.add_argument("--adapter", action="append", choices=ADAPTERS, help="only these adapters (repeatable)")
    args = parser.parse_args()
    rows = []
    for name in args.adapter or ADAPTERS:
        try:
            rows.append(measure(name, args.data_dir, args.workers))
        except Exception as exc:  # noqa: BLE001 - e.g. Node.js missing: report and go on
            print(f"{name}: not measured ({type(exc).__name__}: {exc})")
    print(f"{'adapter':<12} {'calls':>5} {'captured':>8} {'cold wall':>10} {'warm wall':>10} {'warm calls/s':>13}")
    for row in rows:
        rate = row["calls"] / row["warm_s"] if row["warm_s"] else float("inf")
        print(f"{row['adapter']:<12} {row['calls']:>5} {row['captured']:>8} {row['cold_s']:>9.2f}s {row['warm_s']:>9.2f}s "
              f"{rate:>13.0f}")
    count, seconds = harness_only(args.data_dir)
    print(f"harness alone (requests_py, no sandbox, 1 core): {seconds:.2f} s for {count} calls, "
          f"{1000 * seconds / count:.1f} ms per call")
    for row in rows:
        if row["adapter"] != "axios_js":
            verdict = "meets" if row["cold_s"] < TARGET_S else "MISSES"
            print(f"{row['adapter']}: {row['cold_s']:.2f} s cold for {row['calls']} samples {verdict} the {TARGET_S:g} s target")


if __name__ == "__main__":
    main()
