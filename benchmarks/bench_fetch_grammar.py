"""fetch_js's full-completion grammar beside axios's, on WAPIIBench and on GitHub's description.

    python benchmarks/bench_fetch_grammar.py [--data-dir ../shared/wapiibench] [--every 6]
                                             [--adapters axios_js,fetch_js] [--skip-github]

Per adapter and task set (WAPIIBench; GitHub's pinned description with the task set
``bench_large_spec.py`` scaffolds, every ``--every``-th operation): the grammar's size, spec →
grammar (uncached) and llguidance's compile for wapii-tiny's tokenizer, summed over the specs,
and the time to fill one token mask per step along every expected call (the adapter's own
rendering of it), in both the ``full`` and the ``argument`` setup, and how many expected calls the grammar refused
before their end. To compare two versions of the
grammar code, run this once with ``PYTHONPATH`` pointing at each checkout, one after the other.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_constraints as bc  # noqa: E402
import bench_large_spec as bls  # noqa: E402


def adapters() -> dict[str, tuple[Callable[..., Any], Callable[..., str], Callable[..., str]]]:
    """Per adapter: build_constraint, starter_code, render_program."""
    from wapii_axios_js import grammar as axios_grammar, prompt as axios_prompt, render as axios_render
    from wapii_fetch_js import grammar as fetch_grammar, prompt as fetch_prompt, render as fetch_render

    return {"axios_js": (axios_grammar.build_constraint, axios_prompt.starter_code, axios_render.render_program),
            "fetch_js": (fetch_grammar.build_constraint, fetch_prompt.starter_code, fetch_render.render_program)}


def measure(dataset: Any, hf_tokenizer: Any, build: Callable[..., Any], starter_code: Callable[..., str],
            render_program: Callable[..., str]) -> dict[str, float]:
    from wapii_core.base.model import Setup
    from wapii_core.grammar import get_engine
    from wapii_core.openapi.index import SpecIndex
    from wapii_hf_models.logits import GrammarLogitsProcessor

    engine = get_engine()
    tokenizer = engine.tokenizer(hf_tokenizer)
    out = {"mib": 0.0, "build": 0.0, "compile": 0.0}
    constraints = {}
    for api, path in sorted(dataset.specs.items()):
        index = SpecIndex.load(path)
        started = time.perf_counter()
        constraint = build(index, Setup.full)
        out["build"] += time.perf_counter() - started
        engine._compiled.clear()  # type: ignore[attr-defined]  (time a real compile, not the memo)
        started = time.perf_counter()
        compiled = engine.compile(constraint.grammar, tokenizer)
        out["compile"] += time.perf_counter() - started
        out["mib"] += len(constraint.grammar) / 2**20
        constraints[api] = (constraint, compiled)
    times: list[float] = []
    refused = 0
    for setup in (Setup.full, Setup.argument):
        for sample in dataset.samples:
            constraint, compiled = constraints[sample.api]
            starter = starter_code(sample, setup)
            completion = render_program(sample.config, setup, sample)[len(starter):]
            matcher = compiled.matcher()
            matcher.feed(constraint.prefix(starter))
            mask = GrammarLogitsProcessor([matcher], tokenizer.vocab_size, hf_tokenizer.eos_token_id).bitmask
            for token in hf_tokenizer.encode(completion, add_special_tokens=False):
                started = time.perf_counter()
                matcher.fill_mask(mask, 0)
                times.append(time.perf_counter() - started)
                done = matcher.is_accepting()  # the call's terminator consumed: the program goes on after it
                if not matcher.consume(token):
                    refused += not done
                    break
    out.update(steps=len(times), refused=refused, median_ms=statistics.median(times) * 1e3,
               p95_ms=bc.percentile(times, 0.95) * 1e3, max_ms=max(times) * 1e3)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    shared = Path(os.environ.get("WAPII_SHARED", bls.REPO.parent / "shared"))
    parser.add_argument("--data-dir", type=Path, default=shared / "wapiibench", help="WAPIIBench's files")
    parser.add_argument("--every", type=int, default=6, help="GitHub task set: every N-th operation")
    parser.add_argument("--adapters", default="axios_js,fetch_js", help="comma-separated adapters to measure")
    parser.add_argument("--skip-github", action="store_true", help="WAPIIBench only")
    args = parser.parse_args()
    from wapii_core.datasets.loader import load_dataset_dir

    made = adapters()
    hf_tokenizer = bc.tiny_tokenizer()
    with tempfile.TemporaryDirectory(prefix="wapii-fetch-grammar-") as scratch:
        dirs = {"WAPIIBench": args.data_dir}
        if not args.skip_github:
            with contextlib.redirect_stdout(io.StringIO()):
                dirs["github"] = bls.build_datasets(bls.fetch_github_spec(), args.every, Path(scratch))["github (JSON)"]
        print(f"load {os.getloadavg()[0]:.1f}\n")
        print("| task set | adapter | grammar (MiB) | spec → grammar + compile (s) | mask median / p95 / max (ms) "
              "| steps | expected calls refused |\n|---|---|---:|---:|---:|---:|---:|")
        for name, directory in dirs.items():
            dataset = load_dataset_dir(directory, name)
            for adapter in args.adapters.split(","):
                r = measure(dataset, hf_tokenizer, *made[adapter])
                print(f"| {name} | {adapter} | {r['mib']:.2f} | {r['build']:.2f} + {r['compile']:.2f} | "
                      f"{r['median_ms']:.3f} / {r['p95_ms']:.3f} / {r['max_ms']:.1f} | {r['steps']} | {r['refused']} |",
                      flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
