"""Batched vs one-prompt-at-a-time generation with the ``hf`` backend on ``wapii-tiny``.

Both variants generate greedily for the same WAPIIBench prompts (395 by default, built by the
``axios_js`` adapter for the ``full`` setup), given to the backend in one call as the runner does, each in its
own fresh process (so each one's peak memory is its own), with the response cache off. Prints a
table: samples/s, the speed-up of batching, peak RSS, and whether the outputs are identical.

    python benchmarks/bench_generation.py [--data-dir ../shared/wapiibench] [--max-new-tokens 64]

This module also holds the small harness ``bench_openai.py`` uses (worker processes, the table).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA_DIR = REPO.parent / "shared" / "wapiibench"


# -- harness shared with bench_openai.py ----------------------------------------------------------

def peak_rss_mib() -> float:
    """This process's peak resident memory so far, in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def wapiibench_requests(data_dir: Path, limit: int | None = None) -> list[Any]:
    """GenerationRequests for every WAPIIBench sample (``full`` setup) with the axios adapter's prompts."""
    from wapii_core.base import plugins
    from wapii_core.datasets.loader import load_wapiibench
    from wapii_core.base.model import GenerationRequest, Setup

    dataset = load_wapiibench(data_dir)
    adapter = plugins.adapters.get("axios_js")()
    samples = dataset.samples[:limit] if limit else dataset.samples
    return [GenerationRequest(sample=s, prompt=adapter.prompt(s, Setup.full, dataset)) for s in samples]


def timed_generation(backend: Any, requests: list[Any]) -> dict[str, Any]:
    """Generate everything through ``backend`` in one call, as the runner does; time, outputs, peak RSS."""
    started = time.perf_counter()
    generations = list(backend.generate(requests))
    seconds = time.perf_counter() - started
    return {"samples": len(generations), "seconds": seconds, "samples_per_s": len(generations) / seconds,
            "failed": sum(1 for g in generations if g.error), "peak_rss_mib": peak_rss_mib(),
            "outputs": {g.key: [g.code, g.finish_reason, g.error] for g in generations}}


def run_worker(script: str, args: list[str]) -> dict[str, Any]:
    """Run ``script --worker ARGS`` in a fresh interpreter; its last stdout line is a JSON result."""
    done = subprocess.run([sys.executable, script, "--worker", *args], capture_output=True, text=True,
                          env={**os.environ, "TOKENIZERS_PARALLELISM": "false"})
    if done.returncode != 0:
        raise SystemExit(f"worker {args} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def print_table(title: str, rows: list[dict[str, Any]], baseline: dict[str, Any]) -> None:
    """A Markdown table of worker results, with the speed-up over ``baseline`` and how many outputs match it."""
    print(f"\n{title}\n")
    print("| variant | samples | seconds | samples/s | speed-up | peak RSS (MiB) | outputs identical |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        print(f"| {row['variant']} | {row['samples']} | {row['seconds']:.1f} | {row['samples_per_s']:.2f} | "
              f"{row['samples_per_s'] / baseline['samples_per_s']:.1f}× | {row['peak_rss_mib']:.0f} | "
              f"{identical(row, baseline)}/{len(baseline['outputs'])} |")


def identical(row: dict[str, Any], baseline: dict[str, Any]) -> int:
    """How many of ``baseline``'s outputs ``row`` reproduced exactly."""
    return sum(1 for key, out in baseline["outputs"].items() if row["outputs"].get(key) == out)


def main_with_workers(parser: argparse.ArgumentParser, worker: Callable[[argparse.Namespace], dict[str, Any]],
                      orchestrate: Callable[[argparse.Namespace], None]) -> None:
    """Dispatch ``--worker`` invocations to ``worker`` (printing its JSON) and the rest to ``orchestrate``."""
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args)))
    else:
        orchestrate(args)


# -- this benchmark ---------------------------------------------------------------------------------

def worker(args: argparse.Namespace) -> dict[str, Any]:
    from wapii_core.base.protocols import BackendOptions
    from wapii_hf_models.backend import HFBackend

    requests = wapiibench_requests(args.data_dir, args.limit)
    options = {"batch_size": str(args.batch_size), "max_new_tokens": str(args.max_new_tokens),
               "threads": str(args.threads), "no_cache": "true", "device": "cpu", "dtype": args.dtype}
    backend = HFBackend(BackendOptions(model="wapii-tiny", extra=options))
    loading = time.perf_counter()
    backend._load()
    result = timed_generation(backend, requests)
    result["load_seconds"] = time.perf_counter() - loading - result["seconds"]
    backend.close()
    return result


def orchestrate(args: argparse.Namespace) -> None:
    common = ["--data-dir", str(args.data_dir), "--max-new-tokens", str(args.max_new_tokens),
              "--threads", str(args.threads), "--dtype", args.dtype] + (["--limit", str(args.limit)] if args.limit else [])
    from wapii_hf_models import tiny

    tiny.ensure_built()  # built once, outside the timings
    rows = []
    for variant, size in (("one prompt at a time", 1), (f"batched ({args.batch_size} per batch)", args.batch_size)):
        result = run_worker(__file__, [*common, "--batch-size", str(size)])
        rows.append({"variant": variant, **result})
        print(f"{variant}: {result['samples_per_s']:.2f} samples/s", file=sys.stderr)
    print_table(f"hf backend, wapii-tiny, greedy, {args.dtype}, max_new_tokens={args.max_new_tokens}, "
                f"CPU threads={args.threads}",
                rows, rows[0])
    differing = sorted(k for k, out in rows[0]["outputs"].items() if rows[1]["outputs"].get(k) != out)
    if differing:
        print(f"\ndiffering samples: {', '.join(differing)} (see docs/benchmarks.md: float32 near-ties)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, default=Path(os.environ.get("WAPII_DATA_DIR", DEFAULT_DATA_DIR)))
    parser.add_argument("--max-new-tokens", type=int, default=64)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads in each variant")
    parser.add_argument("--dtype", default="float32", help="float32 (the CPU default) or float64")
    parser.add_argument("--limit", type=int, default=None, help="only the first N prompts")
    main_with_workers(parser, worker, orchestrate)


if __name__ == "__main__":
    main()
