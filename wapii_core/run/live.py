"""Reading a run directory that is still being written, or was cut off: what the readers (``wapii report``,
``wapii view``) show in place of a ``summary.json`` that is missing or stale.

A directory is *live* when a ``wapii run``/``evaluate`` holds its lock (its ``summary.json``, if any, is
the previous one's) or when it has no ``summary.json`` at all (a run interrupted by Ctrl-C or a kill).
Its summary is then computed from the lines written so far: the paper's rows over the judged samples,
``complete`` false, and :class:`~wapii_core.store.record.LiveState` saying how many samples were
planned, generated, judged and are pending. Readers never take the lock: it keeps writers apart, and a
reader that took it would refuse a run starting at the same moment.
"""

from __future__ import annotations

from pathlib import Path

from wapii_core.base.errors import WapiiError
from wapii_core.store.lock import writer_pid
from wapii_core.store.record import (SUMMARY_FILE, LiveState, RunRecord, Summary, is_live, latest, load_run,
                                     load_summary, read_generations, read_results)

__all__ = ["is_live", "live_summary", "read_summary"]  # is_live: the store's, for the readers


def read_summary(directory: Path) -> Summary:
    """``summary.json`` of a finished run; for a live one (see the module), the summary of what it holds
    so far, with ``live`` set."""
    directory = Path(directory)
    writer = writer_pid(directory)
    if writer is None and (directory / SUMMARY_FILE).exists():
        return load_summary(directory)
    return live_summary(directory, load_run(directory), writer)


def live_summary(directory: Path, run: RunRecord, writer: int | None) -> Summary:
    """The summary of the lines a run directory holds now (``writer``: the pid writing it, or None)."""
    from wapii_core.judge.metrics import PaperMetrics
    from wapii_core.store.record import RECORD_VERSION

    generations = latest(read_generations(directory, live=True))
    results = latest(read_results(directory, live=True))
    failed = [g for key, g in generations.items() if g.error is not None and key not in results]
    keys, tasks, tasks_of, dataset = _planned(run)
    rows = PaperMetrics().aggregate(list(results.values()), dataset)  # rows of n/a before the first judged sample
    state = LiveState(state="running" if writer is not None else "interrupted", writer=writer,
                      planned=len(keys) if keys is not None else None, generated=len(generations),
                      failed=len(failed), judged=len(results))
    return Summary(record_version=RECORD_VERSION, complete=False,
                   samples=len(keys) if keys is not None else len(generations), tasks=tasks, tasks_of=tasks_of,
                   judged=len(results), not_executed=sum(r.provisional for r in results.values()),
                   failed_generations=[{"sample": g.sample, "draw": g.draw, "error": g.error} for g in failed],
                   mode=run.mode, setup=run.setup, overall=rows.get("overall", {}), per_api=rows.get("per_api", {}),
                   live=state)


def _planned(run: RunRecord) -> tuple[list[str] | None, int | None, int | None, object]:
    """(the generation keys the run covers, its tasks, its dataset's tasks, the dataset), from its
    dataset as run.json names it; Nones when that dataset cannot be read any more."""
    from wapii_core.run.plan import config_of, load_dataset, run_keys, select_samples
    from wapii_core.run.tasks import recorded_tasks

    try:
        config = config_of(run)
        dataset = load_dataset(config.dataset, config.data_dir, config.dataset_dir)
        samples = recorded_tasks(select_samples(dataset, config), run.task_set)
    except (WapiiError, OSError, ValueError):
        return None, None, None, None
    return run_keys(samples, config), len(samples), len(dataset.samples), dataset
