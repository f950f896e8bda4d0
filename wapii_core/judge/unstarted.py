"""Samples whose program never ran because no sandbox worker could start.

A worker that cannot start (a broken installation, or a process limit held by other processes of the
sandbox user) no longer ends a run: the judge turns each call of the batch into a ``runtime_error``
whose detail begins ``worker_start_failed:`` and marks the result ``provisional``. The run goes on,
writes ``summary.json`` and ``report.md`` (``complete: false``, ``not_executed``: how many), and the
command ends with one line naming the cause. Provisional results are never final: running the same
``wapii run`` again (a resume) or ``wapii evaluate`` judges them again. The mark is the result's own
field, set by the judge alone: no program can write it (a program's error text is only text).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from wapii_core.base.errors import WapiiError
from wapii_core.base.text import exception_line
from wapii_core.base.model import Capture, SampleResult

PREFIX = "worker_start_failed"


class SamplesNotExecuted(WapiiError):
    """A run finished and wrote its files, but some programs never ran (no worker could start).

    Exit code 3, like failed generations: running the same command again judges them again."""

    exit_code = 3


def not_executed(error: BaseException, count: int) -> list[Capture]:
    """The captures of ``count`` calls that did not run because a worker's start failed with ``error``."""
    return [Capture(error="runtime_error", detail=f"{PREFIX}: {exception_line(error)}") for _ in range(count)]


def provisional(result: SampleResult | None) -> bool:
    """Whether ``result`` is absent or waits to be judged again (its program never ran)."""
    return result is None or result.provisional


def failure(runs: Iterable[tuple[str, int, list[SampleResult]]]) -> SamplesNotExecuted | None:
    """The one-line error of runs (``(run directory, samples, results)``) that hold provisional
    results, naming how many and the most frequent cause; None when none do."""
    parts = []
    for target, samples, results in runs:
        unrun = [r for r in results if r.provisional]
        if not unrun:
            continue
        cause, _ = Counter(str(r.error_detail) for r in unrun).most_common(1)[0]
        parts.append(f"{target}: {len(unrun)} of {samples} programs did not run ({cause})")
    if not parts:
        return None
    return SamplesNotExecuted("; ".join(parts) + "; they count as runtime_error in summary.json for now: run the "
                              "same command again (or `wapii evaluate` on the run directory) to judge them once "
                              "workers can start")
