"""Execution speed of the axios_js adapter: worker pool vs. one Node process per sample.

Runs every program of the conformance corpus (default ``<repo>/../shared/conformance/corpus_a``,
395 programs) twice, extraction included:

1. through ``AxiosAdapter.execute`` (the persistent Node worker pool; wall time includes starting
   the workers);
2. the reference pipeline's way: for each sample, a fresh ``node -`` reading the mock set-up followed
   by the extracted call on stdin, with the full environment of this process, one after another.

Prints both wall times, the speed-up, and whether both ways captured the same requests. The second
way is slow (~0.4 s per sample); ``--baseline-samples N`` times it on the first N runnable samples
only and extrapolates to all of them (the output says so).

    .venv/bin/python benchmarks/bench_execution.py [--baseline-samples 40] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from wapii_axios_js.adapter import AxiosAdapter
from wapii_axios_js.normalise import JUDGED_KEYS
from wapii_axios_js.runtime import library
from wapii_core.sandbox import default_worker_count
from wapii_core.sandbox.node import ensure_runtime, find_node

REPO = Path(__file__).resolve().parents[1]


def default_corpus() -> Path:
    shared = Path(os.environ.get("WAPII_SHARED") or REPO.parent / "shared")
    return shared / "conformance" / "corpus_a"


REFERENCE_NORMALISE = REPO / "plugins" / "axios_js" / "tests" / "js" / "reference_normalise.js"
"""The published mock's normalisation, operation for operation (also the capture tests' oracle)."""


def mock_setup(log_file: Path) -> str:
    """A script prefix like the reference's: axios with a mock that logs the normalised config."""
    capture = json.dumps(str(REFERENCE_NORMALISE))
    return (
        "const axios = require('axios');\n"
        "const MockAdapter = require('axios-mock-adapter');\n"
        "const fs = require('fs');\n"
        "const mock = new MockAdapter(axios);\n"
        f"const {{ normaliseCapturedConfig }} = require({capture});\n"
        "mock.onAny().reply((config) => {\n"
        "  normaliseCapturedConfig(config);\n"
        f"  fs.writeFileSync({json.dumps(str(log_file))}, JSON.stringify(config));\n"
        "  return [200];\n"
        "});\n"
    )


def run_one_process(node: str, runtime: Path, call: str, scratch: Path) -> dict:
    """One sample the reference's way: a new ``node -`` process; the verdict from exit code and log."""
    log_file = scratch / "config.json"
    log_file.unlink(missing_ok=True)
    done = subprocess.run([node, "-"], input=mock_setup(log_file) + "\n" + call, text=True, capture_output=True, cwd=runtime)
    if done.returncode != 0:
        return {"error": "runtime_error"}
    if not log_file.exists():
        return {"error": "no_request"}
    logged = json.loads(log_file.read_text())
    return {"request": {key: logged[key] for key in JUDGED_KEYS if key in logged}}


def load_calls(adapter: AxiosAdapter, corpus: Path) -> tuple[int, list[str]]:
    programs = sorted(corpus.glob("*/*_code.js"))
    if not programs:
        sys.exit(f"no *_code.js programs under {corpus} (set WAPII_SHARED or pass --corpus)")
    calls = [e.call for e in (adapter.extract(p.read_text()) for p in programs) if e.call is not None]
    return len(programs), calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=default_corpus())
    parser.add_argument("--workers", type=int, default=None, help="pool size (default: one per CPU)")
    parser.add_argument(
        "--baseline-samples", type=int, default=None,
        help="time the one-process-per-sample way on this many samples only and extrapolate",
    )
    args = parser.parse_args()

    node, runtime = find_node(), ensure_runtime(library())
    start = time.perf_counter()
    adapter = AxiosAdapter(workers=args.workers)
    samples, calls = load_calls(adapter, args.corpus)
    pooled = adapter.execute(calls)
    pool_s = time.perf_counter() - start
    adapter.close()
    print(f"{samples} programs, {len(calls)} with an extracted call, {adapter.workers or default_worker_count()} workers")
    print(f"worker pool:           {pool_s:8.2f} s wall (extraction, worker start-up and execution)")

    count = len(calls) if args.baseline_samples is None else min(args.baseline_samples, len(calls))
    with tempfile.TemporaryDirectory(prefix="wapii-bench-") as scratch:
        start = time.perf_counter()
        single = [run_one_process(node, runtime, call, Path(scratch)) for call in calls[:count]]
        measured_s = time.perf_counter() - start
    baseline_s = measured_s * len(calls) / count
    note = "" if count == len(calls) else f" (measured {measured_s:.2f} s on {count} samples, extrapolated)"
    print(f"one process per sample: {baseline_s:8.2f} s wall{note}")
    print(f"speed-up:              {baseline_s / pool_s:8.1f} x")

    as_dict = [{"request": c.request} if c.request is not None else {"error": c.error} for c in pooled[:count]]
    same = sum(a == b for a, b in zip(as_dict, single))
    print(f"same capture or error both ways: {same}/{count}")


if __name__ == "__main__":
    main()
