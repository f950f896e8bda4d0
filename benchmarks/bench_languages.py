"""Programs judged per second, per target library, side by side in one run: the oracle's program of
every WAPIIBench task (full setup, wire mode) extracted, executed in the sandbox and judged.

Each library runs alone (one after the other, fresh workers each), so the figures are comparable.
Wall time is what a user waits; on a machine shared with other jobs it mostly measures the others,
so for the adapters that measure their programs' CPU (the Java ones: each JVM's CPU as its worker
reaped it with ``wait4``, plus ``javac``, plus this process) CPU time is reported too, and the rate
the machine's free cores would give: ``programs / (CPU seconds / cores)``. For the others it is
left out (``—``): counting this process's children misses the workers killed inside bubblewrap
before its PID namespace's init reaped them, which would understate it many times over.

    python benchmarks/bench_languages.py [--adapter NAME ...] [--limit N] [--data-dir DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

DEFAULT = ["httpclient_java", "okhttp_java", "nethttp_go", "axios_js", "fetch_js", "requests_py", "httpx_py", "aiohttp_py"]


def _self_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure(name: str, dataset, limit: int | None) -> dict:
    from collections import Counter

    from wapii_core.base import plugins
    from wapii_core.base.model import Generation, Setup
    from wapii_core.run.runner import Judge

    adapter = plugins.adapters.get(name)()
    samples = dataset.samples[:limit] if limit else dataset.samples
    generations = [Generation(sample=s.id, code=adapter.render(s.config, Setup.full, s)) for s in samples]
    self0, t0 = _self_cpu(), time.perf_counter()
    try:
        verdicts = Counter(r.verdict for r in Judge(adapter, dataset, "wire")(generations))
        programs_cpu = adapter.cpu_seconds() if hasattr(adapter, "cpu_seconds") else None
    finally:
        adapter.close()
    wall = time.perf_counter() - t0
    if programs_cpu is not None:  # the JVMs' own CPU, measured by their worker (wait4), javac's and this process's
        cpu = sum(programs_cpu.values()) + _self_cpu() - self0
    else:  # RUSAGE_CHILDREN misses workers killed inside bubblewrap before its init reaped them: not reported
        cpu = None
    return {"adapter": name, "programs": len(generations), "wall_s": wall, "cpu_s": cpu, "verdicts": dict(verdicts),
            "detail": programs_cpu}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--adapter", action="append", help=f"adapters to measure (default: {', '.join(DEFAULT)})")
    parser.add_argument("--limit", type=int, default=None, help="only the first N tasks")
    parser.add_argument("--data-dir", type=Path,
                        default=Path(os.environ.get("WAPII_SHARED", Path(__file__).resolve().parents[2] / "shared")) / "wapiibench")
    args = parser.parse_args()
    from wapii_core.base import plugins
    from wapii_core.run.runner import load_dataset

    dataset = load_dataset("wapiibench", args.data_dir)
    cores = len(os.sched_getaffinity(0))
    names = [n for n in (args.adapter or DEFAULT) if n in plugins.adapters.names()]
    print(f"{len(dataset.samples) if not args.limit else args.limit} WAPIIBench tasks, full setup, wire mode; "
          f"{cores} cores; load {os.getloadavg()[0]:.1f} at the start")
    print(f"{'adapter':<18}{'programs':>9}{'wall s':>9}{'per s':>8}{'CPU s':>9}{'per s (CPU)':>13}  verdicts")
    rows = []
    for name in names:
        try:
            row = measure(name, dataset, args.limit)
        except Exception as exc:  # noqa: BLE001 - one library that cannot run here is a row, not the end
            print(f"{name:<18}cannot run here: {str(exc).splitlines()[0][:150]}", flush=True)
            continue
        rows.append(row)
        cpu = (f"{row['cpu_s']:>9.1f}{row['programs'] / (row['cpu_s'] / cores):>13.1f}" if row["cpu_s"] is not None
               else f"{'—':>9}{'—':>13}")
        print(f"{name:<18}{row['programs']:>9}{row['wall_s']:>9.1f}{row['programs'] / row['wall_s']:>8.1f}"
              f"{cpu}  {row['verdicts']}"
              + (f"  (CPU s: {', '.join(f'{k} {v:.1f}' for k, v in row['detail'].items())})" if row["detail"] else ""),
              flush=True)
    print(f"load {os.getloadavg()[0]:.1f} at the end")
    return 0 if all(set(r["verdicts"]) == {"correct"} for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
