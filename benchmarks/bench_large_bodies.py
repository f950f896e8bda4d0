"""Judging time of one sample whose program sends a large request, per adapter and body shape.

Usage: ``python benchmarks/bench_large_bodies.py [--data-dir $WAPII_SHARED/wapiibench] [--adapter A ...]``
(the figures in docs/benchmarks.md: one worker and a 10 s timeout per adapter, ``_WORKERS=1`` and ``_TIMEOUT=10``
after ``WAPII_AXIOS_JS``, ``WAPII_FETCH_JS`` and ``WAPII_REQUESTS_PY``, so that the programs finish)

Each program replaces the generation of WAPIIBench's first Asana sample and sends a wrong POST with
a large body: ``json-3mb`` (a JSON object of 3.4 MB: 80,000 keys of 30-character strings),
``form-400k`` (a form of 400,000 keys) and ``ordinary`` (the oracle's own program, for scale). The
times are those of the run's :class:`~wapii_core.run.runner.Judge` on that one generation, split
into ``execute`` (the adapter running the call: the program's own time in the sandbox, bounded by
the adapter's timeout, plus reading its answer) and ``judge`` (the rest, in wapii's own process
without a time limit: normalising, comparing, validating against the spec), after one untimed
ordinary sample has warmed the workers; the size is that of the sample's line in ``results.jsonl``
as the run store writes it. Timings are noisy on a shared machine: compare variants side by side in
one run.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA_DIR = Path(os.environ.get("WAPII_SHARED") or REPO.parent / "shared") / "wapiibench"
URL = "https://app.asana.com/api/1.0/tasks"

JS_JSON = "Object.fromEntries(Array.from({ length: 80000 }, (_, i) => ['k' + i, 'v'.repeat(30)]))"
JS_FORM = "new URLSearchParams(Array.from({ length: 400000 }, (_, i) => ['k' + i, '1']))"

PROGRAMS = {
    "axios_js": {
        "json-3mb": f"const axios = require('axios');\naxios.post('{URL}', {JS_JSON});\n",
        "form-400k": f"const axios = require('axios');\naxios.post('{URL}', {JS_FORM});\n",
    },
    "fetch_js": {
        "json-3mb": f"fetch('{URL}', {{ method: 'POST', headers: {{ 'Content-Type': 'application/json' }}, "
                    f"body: JSON.stringify({JS_JSON}) }});\n",
        "form-400k": f"fetch('{URL}', {{ method: 'POST', body: {JS_FORM} }});\n",
    },
    "requests_py": {
        "json-3mb": f"import requests\nrequests.post('{URL}', json={{'k%d' % i: 'v' * 30 for i in range(80000)}})\n",
        "form-400k": f"import requests\nrequests.post('{URL}', data={{'k%d' % i: '1' for i in range(400000)}})\n",
    },
}


def measure(adapter_name: str, data_dir: Path) -> list[tuple[str, float, float, int, str]]:
    """``(program, seconds executing, seconds judging the rest, bytes of its results.jsonl line,
    verdict and detail)`` per program."""
    from wapii_core.base import plugins
    from wapii_core.base.model import Generation, Setup
    from wapii_core.run.runner import Judge, load_dataset

    dataset = load_dataset("wapiibench", data_dir)
    sample = next(s for s in dataset.samples if s.api == "asana")
    adapter = plugins.adapters.get(adapter_name)()
    try:
        judge = Judge(adapter, dataset)
        executing = [0.0]
        execute = adapter.execute

        def timed_execute(calls: list[str]) -> list:
            start = time.perf_counter()
            try:
                return execute(calls)
            finally:
                executing[0] += time.perf_counter() - start

        adapter.execute = timed_execute
        ordinary = adapter.render(sample.config, Setup.full, sample, judge.mode)
        judge([Generation(sample=sample.id, code=ordinary)])  # warms the workers
        rows = []
        for name, code in [("ordinary", ordinary), *PROGRAMS[adapter_name].items()]:
            executing[0] = 0.0
            start = time.perf_counter()
            result = judge([Generation(sample=sample.id, code=code)])[0]
            seconds = time.perf_counter() - start
            line = result.model_dump_json()
            outcome = f"{result.verdict} {result.error} {(result.error_detail or '')[:90]}"
            rows.append((name, executing[0], seconds - executing[0], len(line.encode()), outcome))
        return rows
    finally:
        adapter.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    parser.add_argument("--adapter", action="append", choices=sorted(PROGRAMS))
    args = parser.parse_args()
    print(f"{'adapter':<12} {'program':<10} {'execute':>8} {'judge':>8} {'line bytes':>11}  result")
    for adapter_name in args.adapter or sorted(PROGRAMS):
        for name, executing, judging, size, outcome in measure(adapter_name, args.data_dir):
            print(f"{adapter_name:<12} {name:<10} {executing:8.2f} {judging:8.2f} {size:11d}  {outcome}", flush=True)


if __name__ == "__main__":
    main()
