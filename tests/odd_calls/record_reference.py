"""Records what the published WAPIIBench pipeline gives this directory's programs (``<adapter>.reference.json``).

The published pipeline, per sample: extract the first call (metrics.md §2, the rules wapii's
extraction reproduces character for character, checked by corpus_a), run it once in plain Node with
the real axios behind axios-mock-adapter whose reply normalises the config and logs
``JSON.stringify(config)`` (``reference_mock.js``), judge the logged config by metrics.md §4-6 (wapii's
reference-mode judge, which reproduces all 395 verdicts of corpus_a). The programs are hand-written
for this family; nothing generated runs here.

Usage (from the repository root, after ``make install``)::

    .venv/bin/python tests/odd_calls/record_reference.py

Each program's first line says what it shows; the file written holds, per sample, the verdicts
``tests/test_odd_calls.py`` holds wapii's run to.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LOGGED_KEYS = ("url", "method", "headers", "params", "data", "path_params")


def reference_capture(call: str, modules: Path) -> dict[str, Any]:
    done = subprocess.run(["node", str(HERE / "reference_mock.js"), str(modules)], input=call, capture_output=True,
                          text=True, timeout=30)
    answer = json.loads(done.stdout)
    if "request" in answer:
        answer["request"] = {k: v for k, v in answer["request"].items() if k in LOGGED_KEYS and v is not None}
    return answer


def main() -> None:
    from wapii_axios_js.adapter import AxiosAdapter
    from wapii_axios_js.runtime import CapturedRequest, library
    from wapii_core.base.model import Generation
    from wapii_core.generation.backends import read_generations
    from wapii_core.run.runner import Judge, load_dataset
    from wapii_core.sandbox.node import ensure_runtime, to_capture

    modules = ensure_runtime(library()) / "node_modules"
    dataset = load_dataset("demo", None)

    class PublishedPipeline(AxiosAdapter):
        """axios_js with the reference's own execution in place of wapii's sandboxed capture."""

        def execute(self, calls: list[str]) -> list[Any]:
            return [to_capture(reference_capture(call, modules), "last", CapturedRequest) for call in calls]

    codes = read_generations(HERE / "axios_js")
    generations = [Generation(sample=sample, draw=draw, code=code) for (sample, draw), code in sorted(codes.items())]
    adapter = PublishedPipeline()
    try:
        results = Judge(adapter, dataset, "reference")(generations)
    finally:
        adapter.close()
    verdicts = {}
    for gen, result in zip(generations, results):
        verdicts[gen.sample] = {
            "shows": gen.code.splitlines()[0].removeprefix("// ").strip(),
            "error": result.error, "sample": result.verdict, "url": result.url, "method": result.method,
            "endpoint": result.endpoint, "arguments": {f: v for f, v in result.arguments.items() if v},
        }
    ordered = dict(sorted(verdicts.items(), key=lambda item: int(item[0].split("/")[1])))
    (HERE / "axios_js.reference.json").write_text(json.dumps(ordered, indent=1) + "\n")
    print(f"recorded {len(ordered)} samples", file=sys.stderr)


if __name__ == "__main__":
    main()
