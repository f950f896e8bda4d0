"""The one-line errors that end a command whose runs are not all done: generations that failed,
programs that never ran (no worker could start)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from wapii_core.base.errors import GenerationsFailed

if TYPE_CHECKING:
    from wapii_core.judge.unstarted import SamplesNotExecuted
    from wapii_core.store.record import Summary


def unrun_failure(runs: list[tuple[str, Summary]]) -> SamplesNotExecuted | None:
    """:func:`wapii_core.judge.unstarted.failure` of runs (``(run directory, summary)``), reading the
    results of those whose summary counts programs that did not run."""
    from wapii_core.base.model import SampleResult
    from wapii_core.judge.unstarted import failure
    from wapii_core.store.rundir import RESULTS_FILE, read_jsonl

    held = []
    for target, summary in runs:
        if summary.not_executed:
            latest = {r.key: r for r in read_jsonl(Path(target) / RESULTS_FILE, SampleResult, repair=True)}
            held.append((target, summary.samples, list(latest.values())))  # a later line supersedes
    return failure(held)


def generation_failures(runs: list[tuple[str, Summary]]) -> GenerationsFailed | None:
    """The error that ends a command whose runs (``(run directory, summary)``) had generations
    fail, naming how many samples each run lost and the two most frequent causes; None when none did."""
    parts = []
    for target, summary in runs:
        failed = summary.failed_generations
        if not failed:
            continue
        causes = Counter(str(f.error) for f in failed).most_common()
        shown = "; ".join(f"{count}x {cause}" for cause, count in causes[:2])
        more = f"; {sum(c for _, c in causes[2:])}x other causes" if len(causes) > 2 else ""
        parts.append(f"{target}: {len(failed)} of {summary.samples} generations failed "
                     f"({shown}{more})")
    if not parts:
        return None
    errors = [str(f.error) for _, summary in runs for f in summary.failed_generations]
    if all(error.startswith("no program for") for error in errors):  # a replay: running it again changes nothing
        return GenerationsFailed("; ".join(parts) + "; those samples are not scored: add their programs to the "
                                 "replay file, or leave them out of the run (--api, --limit)")
    return GenerationsFailed("; ".join(parts) + "; those samples are not scored: run the same command again to "
                             "retry them")
