"""What judging a workflow program costs against a one-call sample, side by side in one run.

For each adapter (default ``axios_js`` and ``requests_py``): the oracle's programs of one-call tasks
(the bundled demo dataset, ``full`` setup) judged by the run's ``Judge`` (extraction, execution in
the sandbox, normalisation, comparison), and the oracle's programs of 3-call workflow tasks (the
shipped ``workflows`` dataset, ``--setup workflow``) judged by the ``WorkflowJudge`` (extraction,
execution against the task's mock, the end state compared and every request judged), in
alternating rounds on the same warm adapter. Each round judges ``--programs`` programs of each
kind; the best round of each is kept (the machine is shared: the best is the least disturbed).
A third kind: the same one-call programs judged with ``--answers mock`` (each run unanswered, as the
first-call benchmark judges it, and again answered by the mock, for the record). Printed:
milliseconds per program of each kind, and the workflow's ratio to each one-call kind (target: a
3-call workflow at most 2x a one-call sample). The expected runs (one replay per task) are made before timing, as a run
makes them before any program runs.

    .venv/bin/python benchmarks/bench_workflows.py [--adapters axios_js,requests_py] [--programs 24]
        [--rounds 5] [--data-dir ../shared/wapiibench]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATA_DIR = REPO.parent / "shared" / "wapiibench"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adapters", default="axios_js,requests_py")
    parser.add_argument("--programs", type=int, default=24)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    args = parser.parse_args()

    from wapii_core.base import plugins
    from wapii_core.base.model import Generation, Setup
    from wapii_core.judge.generations import Judge
    from wapii_core.run.judge_stage import mock_responders
    from wapii_core.workflows.programs import WorkflowJudge

    demo = plugins.datasets.get("demo")(None)
    flows = plugins.datasets.get("workflows")(args.data_dir)
    three = [s for s in flows.samples if s.calls is not None and len(s.calls) == 3]
    if not three:
        print("the workflows dataset has no 3-call task", file=sys.stderr)
        return 2
    print(f"{len(three)} workflow tasks of 3 calls; {len(demo.samples)} one-call demo tasks; "
          f"{args.programs} programs of each kind per round, best of {args.rounds} rounds")
    for name in args.adapters.split(","):
        adapter = plugins.adapters.get(name)()
        try:
            adapter.start()
            single = Judge(adapter, demo)
            answered = Judge(adapter, demo, responders=mock_responders(demo))
            flow = WorkflowJudge(adapter, flows)
            flow.check(three)
            singles = [Generation(sample=s.id, draw=0, code=adapter.render(s.config, Setup.full, s))
                       for s in (demo.samples * (args.programs // len(demo.samples) + 1))[:args.programs]]
            programs = [Generation(sample=s.id, draw=0,
                                   code=adapter.render_workflow(flow.oracle_calls(s), s))  # type: ignore[attr-defined]
                        for s in (three * (args.programs // len(three) + 1))[:args.programs]]
            single(singles[:2]), answered(singles[:2]), flow(programs[:2])  # warm: workers started, mocks derived
            best = {"one call": float("inf"), "one call answered": float("inf"), "workflow": float("inf")}
            for _ in range(args.rounds):
                for kind, judge, gens in (("one call", single, singles), ("one call answered", answered, singles),
                                          ("workflow", flow, programs)):
                    began = time.perf_counter()
                    results = judge(gens)
                    best[kind] = min(best[kind], (time.perf_counter() - began) / len(gens))
                    wrong = [r.sample for r in results if r.verdict != "correct"]
                    if wrong:
                        print(f"{name}: {kind} programs not correct: {wrong[:3]}", file=sys.stderr)
                        return 1
            ratio = best["workflow"] / best["one call"]
            answered_ratio = best["workflow"] / best["one call answered"]
            print(f"{name:12} one call {1000 * best['one call']:6.1f} ms   one call answered by the mock "
                  f"{1000 * best['one call answered']:6.1f} ms   3-call workflow {1000 * best['workflow']:6.1f} ms   "
                  f"ratio {ratio:.2f}x to the first-call benchmark's sample, {answered_ratio:.2f}x to an answered one")
        finally:
            adapter.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
