"""Start-up time of the CLI, whole process: ``wapii --help`` and a one-sample oracle run.

    python benchmarks/bench_startup.py [--repeat 5]

Each command runs ``--repeat`` times in a fresh process (``python -m wapii_core``, as the tests run
it), the two commands interleaved; prints the median and range of the wall time and the median CPU
time (user + system of the process and its children; less sensitive to other jobs on the machine
than the wall time). The run writes into a fresh temporary directory each time (the spec cache is
warm after the first). Goals: ``--help`` <= 0.3 s, the one-sample run <= 1.0 s on a quiet machine.
``--importtime`` also prints the 15 slowest imports of ``--help`` (``python -X importtime``).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GOALS = {"wapii --help": 0.3, "wapii run --limit 1 (oracle, demo)": 1.0}


def timed(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``command`` (which must succeed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def slowest_imports(count: int = 15) -> list[tuple[int, str]]:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "wapii_core", "--help"], cwd=REPO,
                          capture_output=True, text=True)
    rows = []
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].rstrip()))
    return sorted(rows, reverse=True)[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--importtime", action="store_true")
    args = parser.parse_args()
    wapii = [sys.executable, "-m", "wapii_core"]
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in GOALS}
    with tempfile.TemporaryDirectory(prefix="wapii-bench-startup-") as scratch:
        timed([*wapii, "run", "--limit", "1", "--quiet", "--out", os.path.join(scratch, "warm")])  # caches
        for round_ in range(args.repeat):
            for name in GOALS:
                if name.startswith("wapii --help"):
                    command = [*wapii, "--help"]
                else:
                    command = [*wapii, "run", "--limit", "1", "--quiet", "--out", os.path.join(scratch, f"r{round_}")]
                times[name].append(timed(command))
    load = os.getloadavg()[0]
    print(f"\nWhole process, median of {args.repeat} (load {load:.1f})\n")
    print("| command | wall median | wall range | CPU median | goal |")
    print("|---|---:|---:|---:|---:|")
    for name, runs in times.items():
        walls = [w for w, _ in runs]
        cpus = [c for _, c in runs]
        print(f"| `{name}` | {statistics.median(walls):.2f} s | {min(walls):.2f}–{max(walls):.2f} s | "
              f"{statistics.median(cpus):.2f} s | ≤ {GOALS[name]} s |")
    if args.importtime:
        print("\nSlowest imports of `wapii --help` (cumulative µs):")
        for micros, module in slowest_imports():
            print(f"{micros:>9}  {module}")


if __name__ == "__main__":
    main()
