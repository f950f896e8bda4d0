"""Retrieval for the ``rag`` settings: recall of the expected endpoint over every WAPIIBench task, and its time.

    python benchmarks/bench_rag.py [--data-dir ../shared/wapiibench] [--k 5]

For each task the expected endpoint is the judge's: the first candidate path of the expected URL
and the expected method. Prints recall@1 and recall@k per API and overall, and the time taken:
building the indexes (reading the specs, writing the endpoint documentation, BM25 indexing) and
retrieving for all tasks, in a fresh process (nothing cached).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA_DIR = REPO.parent / "shared" / "wapiibench"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--k", type=int, default=5)
    args = parser.parse_args()
    if not (args.data_dir / "dataset.json").is_file():
        sys.exit(f"WAPIIBench not found in {args.data_dir} (pass --data-dir)")
    from wapii_core.datasets.loader import load_wapiibench
    from wapii_core.generation.rag import Retriever
    from wapii_core.openapi.index import SpecIndex

    dataset = load_wapiibench(args.data_dir)
    by_api = defaultdict(list)
    for sample in dataset.samples:
        by_api[sample.api].append(sample)
    indexes = {api: SpecIndex.load(path) for api, path in dataset.specs.items()}  # the judge's index (cached)
    started = time.perf_counter()
    retrievers = {api: Retriever.for_spec(indexes[api]) for api in by_api}
    built = time.perf_counter() - started
    started = time.perf_counter()
    found = {api: retrievers[api].search_many([s.task for s in samples], args.k) for api, samples in by_api.items()}
    searched = time.perf_counter() - started
    rows = []
    for api, samples in sorted(by_api.items()):
        first = top = 0
        for sample, docs in zip(samples, found[api]):
            expected = (indexes[api].candidates(sample.config["url"])[0], sample.config["method"])
            got = [(d.template, d.method) for d in docs]
            first += got[0] == expected
            top += expected in got
        rows.append((api, len(samples), len(retrievers[api].docs), first, top))
    total = sum(r[1] for r in rows)
    print(f"\nRetrieval of the expected endpoint (BM25, bm25s), {total} tasks\n")
    print(f"| API | tasks | endpoints | recall@1 | recall@{args.k} |\n|---|---:|---:|---:|---:|")
    for api, n, endpoints, first, top in rows:
        print(f"| {api} | {n} | {endpoints} | {first / n:.3f} | {top / n:.3f} |")
    print(f"| **all** | {total} | {sum(r[2] for r in rows)} | {sum(r[3] for r in rows) / total:.3f} | "
          f"{sum(r[4] for r in rows) / total:.3f} |")
    print(f"\nTime: indexes {built:.2f} s (specs read, documentation written, BM25 built), "
          f"retrieval for all tasks {searched:.3f} s, total {built + searched:.2f} s")


if __name__ == "__main__":
    main()
