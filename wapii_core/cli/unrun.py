"""The one line that ends a command whose runs hold programs that never ran (no worker could start)."""

from __future__ import annotations

from pathlib import Path

from wapii_core.judge.unstarted import SamplesNotExecuted, failure
from wapii_core.store.record import Summary


def unrun_failure(runs: list[tuple[str, Summary]]) -> SamplesNotExecuted | None:
    """:func:`wapii_core.judge.unstarted.failure` of runs (``(run directory, summary)``), reading the
    results of those whose summary counts programs that did not run."""
    from wapii_core.base.model import SampleResult
    from wapii_core.store.rundir import RESULTS_FILE, read_jsonl

    held = []
    for target, summary in runs:
        if summary.not_executed:
            latest = {r.key: r for r in read_jsonl(Path(target) / RESULTS_FILE, SampleResult, repair=True)}
            held.append((target, summary.samples, list(latest.values())))  # a later line supersedes
    return failure(held)
