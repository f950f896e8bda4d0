"""Generation speed with and without constraints on SmolLM2, as the journal edition's performance
evaluation reports it (``wapiibench/performance_eval.py`` of ``Redocly/WAPIIBench``).

    python benchmarks/bench_constrained_speed.py [--data-dir ../shared/wapiibench] [--tasks 3] [--runs 3] \\
        [--max-new-tokens 250] [--setup full] [--settings unconstrained,constrained]

As the published script does, per task and setting: one prompt at a time (batch 1), greedy, a warm-up
generation that is not timed but gives the number of generated tokens, then ``--runs`` timed
generations of the same prompt (the response cache off); the runtime of a generation includes reading
the prompt, and **tokens/s is the warm-up's token count divided by the mean runtime**. The published
script stops at the stop string alone (250 new tokens at most): so does this one
(``-O stop_at_call=false``). The constrained setting uses literal values only
(``-O constraint_references=false``, as ``make run`` does). The settings alternate per task, so both
meet the same load. Without
``--data-dir`` the tasks are the demo's (bundled); with it, WAPIIBench's, spread over its APIs.
Prints a Markdown table per task and setting, and the mean over tasks per setting (one torch thread
unless ``--threads``; SmolLM2-135M-Instruct, float32, on the CPU).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_constraints import backend, requests  # noqa: E402


def load(data_dir: Path | None) -> Any:
    from wapii_core.datasets.loader import load_demo, load_wapiibench

    return load_wapiibench(data_dir) if data_dir is not None else load_demo()


def spread(samples: list[Any], count: int) -> list[Any]:
    """``count`` samples taken round-robin over the APIs, each API's in dataset order."""
    by_api: dict[str, list[Any]] = {}
    for s in samples:
        by_api.setdefault(s.api, []).append(s)
    chosen: list[Any] = []
    while len(chosen) < count and any(by_api.values()):
        for api in list(by_api):
            if by_api[api] and len(chosen) < count:
                chosen.append(by_api[api].pop(0))
    return chosen


def measure(made: Any, request: Any, runs: int) -> dict[str, Any]:
    """The published measurement of one prompt: a warm-up (its token count), then ``runs`` timed runs."""
    warm = next(iter(made.generate([request])))
    if warm.error:
        raise SystemExit(f"{request.sample.id}: {warm.error}")
    tokens = warm.timings.tokens_out if warm.timings else None
    runtimes = []
    for _ in range(runs):
        started = time.perf_counter()
        out = next(iter(made.generate([request])))
        runtimes.append(time.perf_counter() - started)
        if out.raw != warm.raw:  # greedy: every run must write the same answer
            raise SystemExit(f"{request.sample.id}: run differs from the warm-up")
    mean = statistics.mean(runtimes)
    return {"tokens": tokens, "mean": mean, "std": statistics.stdev(runtimes) if runs > 1 else 0.0,
            "tokens_per_s": (tokens or 0) / mean if mean > 0 else 0.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=None, help="WAPIIBench's directory (default: the demo)")
    parser.add_argument("--tasks", type=int, default=3)
    parser.add_argument("--runs", type=int, default=3, help="timed runs per task and setting (published: 10)")
    parser.add_argument("--max-new-tokens", type=int, default=250)
    parser.add_argument("--setup", default="full", choices=("full", "argument"))
    parser.add_argument("--settings", default="unconstrained,constrained")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--model", default="smollm2-135m")
    args = parser.parse_args()
    import torch

    from wapii_core.base import plugins
    from wapii_core.base.model import Setup

    torch.set_num_threads(args.threads)
    dataset, adapter = load(args.data_dir), plugins.adapters.get("axios_js")()
    setup = Setup(args.setup)
    settings = [s for s in args.settings.split(",") if s]
    samples = spread(dataset.samples, args.tasks)
    reqs = requests(dataset, adapter, setup, samples)
    options = {"batch_size": "1", "max_new_tokens": str(args.max_new_tokens), "threads": str(args.threads),
               "stop_at_call": "false"}
    extra = {"constrained": {"constraint_references": "false"}}
    backends = {s: backend(dataset, adapter, setup, s, model=args.model, **options, **extra.get(s, {}))
                for s in settings}
    rows: list[tuple[str, str, dict[str, Any]]] = []
    try:
        for request in reqs:
            for setting, made in backends.items():
                row = measure(made, request, args.runs)
                rows.append((request.sample.id, setting, row))
                print(f"{request.sample.id} {setting}: {row['tokens']} tokens, {row['mean']:.2f} ± {row['std']:.2f} s, "
                      f"{row['tokens_per_s']:.2f} tokens/s", file=sys.stderr, flush=True)
    finally:
        for made in backends.values():
            made.close()
        adapter.close()
    print(f"\n{args.model}, {args.setup} setup, batch 1, greedy, {args.max_new_tokens} new tokens at most, "
          f"{args.runs} timed runs after a warm-up, {args.threads} thread(s)\n")
    print("| task | setting | tokens | runtime mean ± sd (s) | tokens/s |")
    print("|---|---|---:|---:|---:|")
    for sample, setting, r in rows:
        print(f"| {sample} | {setting} | {r['tokens']} | {r['mean']:.2f} ± {r['std']:.2f} | {r['tokens_per_s']:.2f} |")
    print("\n| setting | mean tokens/s over tasks | mean tokens |")
    print("|---|---:|---:|")
    for setting in settings:
        mine = [r for _, s, r in rows if s == setting]
        print(f"| {setting} | {statistics.mean(r['tokens_per_s'] for r in mine):.2f} | "
              f"{statistics.mean(r['tokens'] or 0 for r in mine):.1f} |")


if __name__ == "__main__":
    main()
