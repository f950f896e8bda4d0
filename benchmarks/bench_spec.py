"""Time indexing the WAPIIBench OpenAPI specs: cold (no cache, fresh process) and from the disk cache.

Usage: ``python benchmarks/bench_spec.py [--specs-dir ../shared/wapiibench/specs] [--repeat 3]``

Each measurement runs in a fresh Python process (so neither the in-process memo nor warm imports
help) with ``WAPII_CACHE_DIR`` pointing to a temporary directory: the cold run starts with it
empty, the cached run reuses what the cold run wrote. Times cover importing ``wapii_core.openapi.index`` and
loading every ``*.yaml`` / ``*.yml`` / ``*.json`` spec of the directory. Targets: < 2 s cold in
total, < 0.2 s cached.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGETS = {"cold": 2.0, "cached": 0.2}

_CHILD = """
import json, sys, time
start = time.perf_counter()
from wapii_core.openapi.index import SpecIndex
imported = time.perf_counter()
times = {}
for path in sys.argv[1:]:
    t = time.perf_counter()
    SpecIndex.load(path)
    times[path] = time.perf_counter() - t
print(json.dumps({"import": imported - start, "specs": times, "total": time.perf_counter() - start}))
"""


def _measure(specs: list[Path], cache: Path) -> dict:
    env = {**os.environ, "WAPII_CACHE_DIR": str(cache)}
    out = subprocess.run([sys.executable, "-c", _CHILD, *map(str, specs)], env=env, cwd=REPO,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    shared = Path(os.environ.get("WAPII_SHARED", REPO.parent / "shared"))
    parser.add_argument("--specs-dir", type=Path, default=shared / "wapiibench" / "specs",
                        help="directory of OpenAPI specs (default: $WAPII_SHARED/wapiibench/specs, ../shared/...)")
    parser.add_argument("--repeat", type=int, default=3, help="fresh cold/cached pairs to run (median reported)")
    args = parser.parse_args()
    specs = sorted(p for p in args.specs_dir.glob("*") if p.suffix in (".yaml", ".yml", ".json"))
    if not specs:
        print(f"no specs in {args.specs_dir}", file=sys.stderr)
        return 2

    runs: dict[str, list[dict]] = {"cold": [], "cached": []}
    for _ in range(max(1, args.repeat)):
        with tempfile.TemporaryDirectory(prefix="wapii-bench-") as cache:
            runs["cold"].append(_measure(specs, Path(cache)))
            runs["cached"].append(_measure(specs, Path(cache)))

    def median(kind: str, pick) -> float:
        return statistics.median(pick(run) for run in runs[kind])

    name_width = max(len(p.name) for p in specs + [Path("import wapii_core.openapi.index"), Path("total")])
    print(f"{'spec':<{name_width}}  {'size':>8}  {'cold':>9}  {'cached':>9}")
    for path in specs:
        cold = median("cold", lambda r: r["specs"][str(path)])
        cached = median("cached", lambda r: r["specs"][str(path)])
        print(f"{path.name:<{name_width}}  {path.stat().st_size / 1024:>6.0f}KB  {cold:>8.3f}s  {cached:>8.3f}s")
    print(f"{'import wapii_core.openapi.index':<{name_width}}  {'':>8}  {median('cold', lambda r: r['import']):>8.3f}s  "
          f"{median('cached', lambda r: r['import']):>8.3f}s")
    totals = {kind: median(kind, lambda r: r["total"]) for kind in runs}
    print(f"{'total':<{name_width}}  {'':>8}  {totals['cold']:>8.3f}s  {totals['cached']:>8.3f}s")
    print(f"median of {len(runs['cold'])} fresh processes each; "
          + ", ".join(f"{kind} target < {TARGETS[kind]} s: {'met' if totals[kind] < TARGETS[kind] else 'MISSED'}"
                      for kind in TARGETS))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
