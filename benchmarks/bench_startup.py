"""Start-up time of the CLI, whole process: ``wapii --help`` and a one-sample oracle run.

    python benchmarks/bench_startup.py [--repeat 5] [--variant NAME=DIR ...] [--without-bytecode] [--importtime]

Each command runs ``--repeat`` times in a fresh process (``python -m wapii_core``, as the tests run
it), the commands and variants interleaved; prints the median and range of the wall time and the
median CPU time (user + system of the process and its children; less sensitive to other jobs on the
machine than the wall time). The run writes into a fresh temporary directory each time (the spec
cache is warm after the first). Goals: ``--help`` <= 0.3 s, the one-sample run <= 1.0 s on a quiet
machine.

A ``--variant NAME=DIR`` runs the same commands with the ``wapii_core`` package of another checkout
(``DIR/wapii_core``, first on ``PYTHONPATH``; the installed plugins are the same), e.g. the tree
before a change: ``git archive main wapii_core | tar -x -C /tmp/before``. Without one, only this
checkout is measured.

The processes get this process's environment. Where ``PYTHONDONTWRITEBYTECODE`` is set, whatever
has no bytecode cache is compiled from source in every process (half a second of CPU for a run):
``scripts/bootstrap`` writes the cache at install (``scripts/compile_bytecode.py``).
``--without-bytecode`` also measures each tree with no cache at all (``PYTHONPYCACHEPREFIX`` an empty
directory, nothing written): an install that was never byte-compiled, where that variable is set.
``--importtime`` also prints the 15 slowest imports of ``--help`` (``python -X importtime``).
"""

from __future__ import annotations

import argparse
import datetime
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GOALS = {"wapii --help": 0.3, "wapii run --limit 1 --quiet (oracle, demo)": 1.0}


def environment(tree: Path, no_cache: str | None = None) -> dict[str, str]:
    """The environment of a process that runs the ``wapii_core`` of ``tree`` (with ``no_cache``, an
    empty directory: without any bytecode cache)."""
    env = dict(os.environ)
    if no_cache is not None:
        env.update(PYTHONPYCACHEPREFIX=no_cache, PYTHONDONTWRITEBYTECODE="1")
    if tree != REPO:
        env["PYTHONPATH"] = os.pathsep.join([str(tree), *filter(None, [env.get("PYTHONPATH")])])
    return env


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``command`` (which must succeed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def slowest_imports(env: dict[str, str], count: int = 15) -> list[tuple[int, str]]:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "wapii_core", "--help"], cwd=REPO, env=env,
                          capture_output=True, text=True)
    rows = []
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].rstrip()))
    return sorted(rows, reverse=True)[:count]


def variant(text: str) -> tuple[str, Path]:
    name, sep, directory = text.partition("=")
    if not sep or not (Path(directory) / "wapii_core").is_dir():
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME=DIR with DIR/wapii_core")
    return name, Path(directory).resolve()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--variant", type=variant, action="append", default=[],
                        help="NAME=DIR: also measure the wapii_core of the checkout DIR")
    parser.add_argument("--without-bytecode", action="store_true",
                        help="also measure each tree without any bytecode cache")
    parser.add_argument("--importtime", action="store_true")
    args = parser.parse_args()
    wapii = [sys.executable, "-m", "wapii_core"]
    with tempfile.TemporaryDirectory(prefix="wapii-bench-startup-") as scratch:
        empty = os.path.join(scratch, "no-bytecode")
        os.mkdir(empty)
        variants = {}
        for tree_name, tree in [*args.variant, ("this checkout", REPO)]:
            if args.without_bytecode:
                variants[f"{tree_name}, no bytecode cache"] = environment(tree, empty)
            variants[tree_name] = environment(tree)
        times: dict[tuple[str, str], list[tuple[float, float]]] = {(v, c): [] for v in variants for c in GOALS}
        for index, env in enumerate(variants.values()):  # spec caches, npm packages (and bytecode where written)
            timed([*wapii, "run", "--limit", "1", "--quiet", "--out", os.path.join(scratch, f"warm{index}")], env)
            timed([*wapii, "--help"], env)
        for round_ in range(args.repeat):
            for index, (variant_name, env) in enumerate(variants.items()):
                for name in GOALS:
                    if name.startswith("wapii --help"):
                        command = [*wapii, "--help"]
                    else:
                        command = [*wapii, "run", "--limit", "1", "--quiet", "--out",
                                   os.path.join(scratch, f"r{round_}-{index}")]
                    times[(variant_name, name)].append(timed(command, env))
    load = os.getloadavg()[0]
    print(f"\n{datetime.date.today()}: `python benchmarks/bench_startup.py {' '.join(sys.argv[1:])}`".rstrip()
          + f", whole process, median of {args.repeat} (load {load:.1f} on {os.cpu_count()} CPUs)\n")
    print("| variant | command | wall median | wall range | CPU median | goal |")
    print("|---|---|---:|---:|---:|---:|")
    for (variant_name, name), runs in times.items():
        walls = [w for w, _ in runs]
        cpus = [c for _, c in runs]
        print(f"| {variant_name} | `{name}` | {statistics.median(walls):.2f} s | {min(walls):.2f}–{max(walls):.2f} s | "
              f"{statistics.median(cpus):.2f} s | ≤ {GOALS[name]} s |")
    if args.importtime:
        print("\nSlowest imports of `wapii --help` in this checkout (cumulative µs):")
        for micros, module in slowest_imports(environment(REPO)):
            print(f"{micros:>9}  {module}")


if __name__ == "__main__":
    main()
