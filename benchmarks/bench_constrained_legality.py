"""Constrained legality over the whole of WAPIIBench: every sample, every adapter, both setups.

    python benchmarks/bench_constrained_legality.py [--data-dir ../shared/wapiibench]
        [--adapters axios_js,fetch_js,requests_py,aiohttp_py] [--every 1] [--max-new-tokens 250]

The sweep the test ``plugins/hf_models/tests/test_constrained.py::
test_constrained_wapii_tiny_produces_no_illegal_url_method_or_argument`` runs on a stratified subset
(one sample per grammar construct): wapii-tiny (random weights) decodes every sample under the
adapter's grammar (literal values, compact whitespace, greedy), the adapter judges the programs as a
constrained run does, and :func:`wapii_core.grammar.audit.constraint_breaches` lists what a call
breaks of the grammar's promises (a call that finished yet did not run, an illegal URL or method, an
argument illegal for the endpoint the call chose; in the argument setup a method the URL's path does
not have). Prints one row per adapter and setup and exits 1 when any call breaches (the first five
are printed). About 3 minutes per adapter and setup on 2 cores; ``--every N`` takes every Nth sample.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_constraints import DEFAULT_DATA_DIR, backend, requests  # noqa: E402

ADAPTERS = "axios_js,fetch_js,requests_py,aiohttp_py"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--adapters", default=ADAPTERS)
    parser.add_argument("--every", type=int, default=1, help="every Nth sample (1: all)")
    parser.add_argument("--max-new-tokens", type=int, default=250)
    parser.add_argument("--batch", type=int, default=25)
    args = parser.parse_args()

    import torch

    from wapii_core.base import plugins
    from wapii_core.base.model import Setup
    from wapii_core.base.protocols import Dataset
    from wapii_core.datasets.loader import load_wapiibench
    from wapii_core.grammar.audit import constraint_breaches
    from wapii_core.run.runner import Judge
    from wapii_core.openapi.index import SpecIndex

    torch.set_num_threads(1)
    full = load_wapiibench(args.data_dir)
    dataset = Dataset(full.name, full.samples[::args.every], full.specs, full.display_names, full.source,
                      full.sha256, full.prompts_dir)
    specs = {api: SpecIndex.load(path) for api, path in dataset.specs.items()}
    print(f"\n{len(dataset.samples)} WAPIIBench samples, wapii-tiny, greedy, literals + compact, at most "
          f"{args.max_new_tokens} new tokens\n")
    print("| adapter | setup | executable | breaches | finish reasons | minutes |")
    print("|---|---|---:|---:|---|---:|")
    breached = []
    for name in args.adapters.split(","):
        adapter = plugins.adapters.get(name)()
        try:
            for setup in (Setup.full, Setup.argument):
                started = time.perf_counter()
                made = backend(dataset, adapter, setup, "constrained", batch_size=str(args.batch),
                               max_new_tokens=str(args.max_new_tokens), constraint_references="false",
                               constraint_compact="true")
                try:
                    generations = list(made.generate(requests(dataset, adapter, setup, dataset.samples)))
                finally:
                    made.close()
                judge = Judge(adapter, dataset, constrained=True)
                results = [r for start in range(0, len(generations), 64)
                           for r in judge(generations[start:start + 64])]
                found = [(r, problems) for r in results
                         if (problems := constraint_breaches(r, specs[r.api], setup is Setup.argument,
                                                             starter_fixes_method=name != "fetch_js"))]
                breached += [(name, setup.value, r, problems) for r, problems in found]
                reasons = Counter(g.finish_reason for g in generations)
                print(f"| {name} | {setup.value} | {sum(r.verdict != 'nonexecutable' for r in results)} | "
                      f"{len(found)} | {', '.join(f'{k} {v}' for k, v in sorted(reasons.items()))} | "
                      f"{(time.perf_counter() - started) / 60:.1f} |", flush=True)
        finally:
            adapter.close()
    for name, setup, result, problems in breached[:5]:
        print(f"breach: {name} {setup} {result.sample}: {'; '.join(problems)}: {result.call}"[:400], file=sys.stderr)
    return 1 if breached else 0


if __name__ == "__main__":
    sys.exit(main())
