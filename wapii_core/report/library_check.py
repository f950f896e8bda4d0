"""Whether runs can be compared library by library (``wapii report --libraries``).

Tasks one library solved and another did not mean something only between runs that differ in their
adapter alone (same dataset and version, backend, model, setting, comparison mode, draws, task
selection) and that judged the same tasks; two runs of one adapter in the same setup are not two
libraries. :func:`why_not_comparable` says, in one line, what keeps a set of runs from that.
"""

from __future__ import annotations

from typing import Any

SHARED_KEYS = ("dataset", "dataset_sha256", "backend", "model", "setting", "mode", "draws", "answers", "limit", "apis",
               "sample", "sample_seed")
"""What runs compared library by library must share (the setup only within a table)."""

_NAMES = {"dataset_sha256": "dataset version", "mode": "comparison mode", "draws": "draws (-n)", "answers": "--answers",
          "limit": "--limit", "apis": "--api", "sample": "--sample", "sample_seed": "--seed"}


def why_not_comparable(runs: list[Any]) -> str | None:
    """None when ``runs`` (:class:`~wapii_core.report.tables.RunData` with results) can be compared
    library by library, else why not (one line)."""
    if len({run.run.adapter for run in runs}) < 2:
        return "the runs all use one adapter: there are no libraries to compare"
    first = runs[0]
    for run in runs[1:]:
        for key in SHARED_KEYS:
            if getattr(run.run, key, None) != getattr(first.run, key, None):
                return (f"{first.name} and {run.name} differ in {_NAMES.get(key, key)} ({getattr(first.run, key, None)!r}, not "
                        f"{getattr(run.run, key, None)!r}), not only in the adapter")
    by_setup: dict[Any, list[Any]] = {}
    for run in runs:
        by_setup.setdefault(run.run.setup, []).append(run)
    for setup, group in by_setup.items():
        seen: dict[str, str] = {}
        for run in group:
            adapter = run.run.adapter
            if adapter in seen:
                return f"{seen[adapter]} and {run.name} are both {adapter} runs of setup {setup}"
            seen[adapter] = run.name
        tasks = [{r.sample for r in run.results or []} for run in group]
        for run, judged in zip(group[1:], tasks[1:]):
            if judged != tasks[0]:
                return (f"{group[0].name} and {run.name} judged different tasks ({len(tasks[0])} and {len(judged)}, "
                        f"{len(tasks[0] ^ judged)} not in both)")
    return None
