"""Metric provider ``workflows``: how well programs carried out multi-step tasks (docs/workflows.md).

Every value is a ratio of sums over the run's workflow results (one result per program: a task's
draws are programs of their own), with a 95 % percentile bootstrap interval that resamples tasks
(all draws of a task together, as :mod:`wapii_core.report.stats` does for the paper's rows). Runs
without workflow tasks get nothing from it. pass@k and pass^k of task success come from the
``pass_at_k`` provider (a workflow's verdict is ``correct`` exactly when the task succeeded).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable

from wapii_core.base.metric_kinds import Metric
from wapii_core.base.model import SampleResult
from wapii_core.base.protocols import Dataset

ROWS: dict[str, tuple[str, str, Metric]] = {
    "task success": ("success", "one", Metric("rate", "programs that did what the task asked: its end state "
                                              "matches, no write missing, no illegal request, nothing damaged")),
    "end state matches": ("end_state", "one", Metric("rate", "programs whose end state matches the expected one")),
    "step precision": ("correct_steps", "sent_steps", Metric("rate", "requests sent that were an expected step, "
                                                                     "judged correct")),
    "step recall": ("correct_steps", "expected_steps", Metric("rate", "expected steps sent and judged correct")),
    "illegal requests": ("illegal", "sent_steps", Metric("rate", "requests sent that the spec does not allow "
                                                                 "(endpoint or argument)")),
    "collateral damage": ("damaged", "one", Metric("rate", "programs that created, changed or deleted something "
                                                           "the task did not ask for")),
    "extra requests": ("extra", "one", Metric("mean", "requests per program that pair with no expected step "
                                                      "(faulted ones not counted)")),
}
"""Row -> (numerator, denominator, declaration)."""


def _terms(result: SampleResult) -> dict[str, float]:
    w = result.workflow
    assert w is not None
    return {"one": 1.0, "success": float(result.verdict == "correct"), "end_state": float(w.end_state),
            "correct_steps": w.correct_steps, "sent_steps": w.sent_steps, "expected_steps": w.expected_steps,
            "illegal": w.illegal, "damaged": float(bool(w.damage)), "extra": w.extra}


def workflow_rows(results: Iterable[SampleResult], resamples: int = 2000, seed: int = 0) -> dict[str, Any]:
    """The rows and their intervals (``interval.<row>.low`` / ``.high``); empty without workflow results."""
    import numpy as np

    from wapii_core.report.stats import CONFIDENCE, _percentiles, _resample_weights

    per_task: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for result in results:
        if result.workflow is None:
            continue
        for key, value in _terms(result).items():
            per_task[result.sample][key] += value
    if not per_task:
        return {}
    tasks = list(per_task.values())
    num = np.array([[t[n] for n, _, _ in ROWS.values()] for t in tasks], dtype=float)
    den = np.array([[t[d] for _, d, _ in ROWS.values()] for t in tasks], dtype=float)
    total_num, total_den = num.sum(axis=0), den.sum(axis=0)
    out: dict[str, Any] = {row: (float(total_num[j] / total_den[j]) if total_den[j] else None)
                           for j, row in enumerate(ROWS)}
    blocks = []
    for weights in _resample_weights(len(tasks), resamples, seed):
        n, d = weights @ num, weights @ den
        blocks.append(np.where(d > 0, n / np.where(d > 0, d, 1), np.nan))
    intervals = _percentiles(np.concatenate(blocks), CONFIDENCE)
    out["interval"] = {row: ({"low": iv[0], "high": iv[1]} if iv is not None and total_den[j] else None)
                       for j, (row, iv) in enumerate(zip(ROWS, intervals))}
    out["tasks"] = len(tasks)
    out["programs"] = int(total_den[0])
    return out


class WorkflowMetrics:
    """Metric provider ``workflows`` (see the module docstring)."""

    values = {
        **{row: metric for row, (_, _, metric) in ROWS.items()},
        **{f"interval.{row}.{end}": Metric(metric.kind, f"the {end}er end of {row}'s 95 % bootstrap interval "
                                                        "(tasks resampled)")
           for row, (_, _, metric) in ROWS.items() for end in ("low", "high")},
        "tasks": Metric("count", "workflow tasks judged"),
        "programs": Metric("count", "workflow programs judged (tasks times draws)"),
    }

    def aggregate(self, results: Iterable[SampleResult], dataset: Dataset | None = None) -> dict[str, Any]:
        """The rows overall and ``per_api``; ``{}`` for a run without workflow tasks."""
        del dataset
        results = [r for r in results if r.workflow is not None]
        overall = workflow_rows(results)
        if not overall:
            return {}
        overall["per_api"] = {api: workflow_rows([r for r in results if r.api == api])
                              for api in sorted({r.api for r in results})}
        return overall
