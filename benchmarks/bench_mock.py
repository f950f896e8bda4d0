"""Deriving the mock (``SpecMock.load``) for the largest specs at hand, and answering every operation.

    python benchmarks/bench_mock.py [--data-dir ../shared/wapiibench] [--repeat 5] [--no-github]

Per spec, in a fresh process each time (the median of ``--repeat`` runs):

- **derive**: ``SpecMock(document)`` on the document already parsed: planning every operation,
  inferring collections, compiling nothing yet (answers are made per operation when first asked);
- **load**: ``SpecMock.load(path)`` from a fresh process with a warm spec cache (parsing the
  document included, imports not);
- **answer all**: a responder answering every operation's scaffolded request once (the first
  answers of a process: each operation's examples checked, its schemas' validators built);
  **again**: the same with a fresh responder (another sample of the same tasks: warm caches).

Specs: GitHub's description (1,223 operations; fetched with npm into the cache by
``benchmarks/bench_large_spec.py``'s pinned fetch, skipped with ``--no-github``), WAPIIBench's four
and the demo's. The issue's goal: deriving GitHub's mock in at most 2 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

_CHILD = """
import json, sys, time
sys.path.insert(0, {tests!r})
from wapii_core.mock.spec_mock import SpecMock, config_request
from wapii_core.openapi.spec_file import read_spec
from pathlib import Path
spec = Path(sys.argv[1])
start = time.perf_counter()
mock = SpecMock.load(spec)
load = time.perf_counter() - start
document = read_spec(spec)
start = time.perf_counter()
SpecMock(document, spec)
derive = time.perf_counter() - start
answers = None
if sys.argv[2] == "answer":
    from mock_support import requests_by_operation
    configs = [{{k: v for k, v in c.items() if k not in ("flagged", "routed")}}
               for c in requests_by_operation(spec).values()]
    answers = []
    for _ in range(2):  # the first pass of a process, then another sample's (a fresh store, warm caches)
        responder = mock.responder(0, open_world=True)
        start = time.perf_counter()
        for config in configs:
            responder.answer(config_request(config))
        answers.append(time.perf_counter() - start)
    answers.append(len(configs))
print(json.dumps({{"load": load, "derive": derive, "answers": answers}}))
"""


def measure(spec: Path, repeat: int, answer: bool) -> dict[str, object]:
    runs = []
    for i in range(repeat):
        done = subprocess.run([sys.executable, "-c", _CHILD.format(tests=str(REPO / "tests")), str(spec),
                               "answer" if answer and i == 0 else "-"], capture_output=True, text=True, cwd=REPO)
        if done.returncode:
            sys.exit(f"error: {spec}: {done.stderr.strip()[-400:]}")
        runs.append(json.loads(done.stdout))
    out: dict[str, object] = {key: statistics.median(r[key] for r in runs) for key in ("load", "derive")}
    out["answers"] = runs[0]["answers"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=REPO.parent / "shared" / "wapiibench")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-github", action="store_true")
    args = parser.parse_args()
    specs = {}
    if not args.no_github:
        from bench_large_spec import fetch_github_spec

        specs["github"] = fetch_github_spec()
    for name in ("slack", "asana", "google_sheet_v4", "google_calendar_v3"):
        path = args.data_dir / "specs" / f"{name}.yaml"
        if path.is_file():
            specs[name] = path
    specs["demo"] = REPO / "specs" / "demo" / "specs" / "larchwood.yaml"
    print(f"{'spec':<20} {'operations':>10} {'derive s':>9} {'load s':>8} {'answer all s':>13} {'again s':>8}")
    for name, path in specs.items():
        found = measure(path, args.repeat, answer=True)
        first, again, count = found["answers"]
        print(f"{name:<20} {count:>10} {found['derive']:>9.3f} {found['load']:>8.3f} {first:>13.2f} {again:>8.2f}")


if __name__ == "__main__":
    main()
