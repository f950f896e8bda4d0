"""The ``openai`` backend against the tests' fake OpenAI server with 100 ms latency: concurrency 1, 32, 128, 256.

The server (the tests' fake OpenAI server, ``tests/fake_openai``) runs in this process and answers every request
after ``--latency`` seconds; each variant runs in its own fresh process (so each one's peak memory
is its own) and sends the WAPIIBench prompts (395 by default, ``full`` setup, axios adapter; ``--draws``
repeats each) to the backend in one call, as the runner does, with the response cache off. Prints
a table: samples/s, the speed-up over the first variant, the most requests the *server* had in
flight at once, peak RSS, and whether the outputs are identical.

    python benchmarks/bench_openai.py [--data-dir ../shared/wapiibench] [--latency 0.1] [--concurrency 1,32,128,256]
"""

from __future__ import annotations

import argparse
import os
import sys
import uuid
from pathlib import Path
from typing import Any

from bench_generation import DEFAULT_DATA_DIR, REPO, identical, main_with_workers, run_worker, timed_generation, \
    wapiibench_requests


def worker(args: argparse.Namespace) -> dict[str, Any]:
    from wapii_core.base.protocols import BackendOptions
    from wapii_openai_models.backend import OpenAIBackend

    requests = [r.model_copy(update={"draw": d}) for r in wapiibench_requests(args.data_dir, args.limit)
                for d in range(args.draws)]
    options = {"base_url": args.base_url, "concurrency": str(args.concurrency), "no_cache": "true",
               "temperature": "0"}
    backend = OpenAIBackend(BackendOptions(model=args.model, draws=args.draws, extra=options))
    try:
        return timed_generation(backend, requests)
    finally:
        backend.close()


def orchestrate(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(REPO / "tests"))  # the fake server is test support, not an installed module
    from fake_openai import OpenAIServer

    model = f"bench-{uuid.uuid4().hex[:8]}"
    common = ["--data-dir", str(args.data_dir), "--model", model, "--draws", str(args.draws)] + \
        (["--limit", str(args.limit)] if args.limit else [])
    rows = []
    with OpenAIServer(latency=args.latency) as server:
        for concurrency in [int(c) for c in args.concurrency.split(",")]:
            server.reset_counts()
            result = run_worker(__file__, [*common, "--base-url", server.base_url, "--concurrency", str(concurrency)])
            if server.answered != result["samples"] or result["failed"]:
                raise SystemExit(f"concurrency {concurrency}: the server answered {server.answered} requests for "
                                 f"{result['samples']} samples ({result['failed']} failed)")
            rows.append({"variant": f"concurrency {concurrency}", "peak": server.peak_in_flight, **result})
            print(f"concurrency {concurrency}: {result['samples_per_s']:.2f} samples/s, "
                  f"peak {server.peak_in_flight} in flight", file=sys.stderr)
    base = rows[0]
    print(f"\nopenai backend, the tests' fake server, {args.latency * 1000:.0f} ms latency per request\n")
    print("| variant | requests | seconds | requests/s | speed-up | peak in flight (server) | peak RSS (MiB) "
          "| outputs identical |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        print(f"| {row['variant']} | {row['samples']} | {row['seconds']:.2f} | {row['samples_per_s']:.1f} | "
              f"{row['samples_per_s'] / base['samples_per_s']:.1f}× | {row['peak']} | {row['peak_rss_mib']:.0f} | "
              f"{identical(row, base)}/{len(base['outputs'])} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, default=Path(os.environ.get("WAPII_DATA_DIR", DEFAULT_DATA_DIR)))
    parser.add_argument("--latency", type=float, default=0.1, help="seconds the server waits before each answer")
    parser.add_argument("--concurrency", default="1,32,128,256",
                        help="comma-separated variants (the first is the speed-up's baseline); a worker gets one")
    parser.add_argument("--draws", type=int, default=1, help="requests per prompt (one per draw)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N prompts")
    parser.add_argument("--base-url", help=argparse.SUPPRESS)
    parser.add_argument("--model", help=argparse.SUPPRESS)
    main_with_workers(parser, worker, orchestrate)


if __name__ == "__main__":
    main()
