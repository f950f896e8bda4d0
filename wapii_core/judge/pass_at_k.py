"""The ``pass_at_k`` metric provider: the unbiased pass@k estimator of a correct implementation.

With ``n`` draws of a task of which ``c`` are correct implementations (sample verdict ``correct``),
the probability that at least one of ``k`` draws picked without replacement is correct is
``1 - C(n - c, k) / C(n, k)`` (Chen et al. 2021, "Evaluating Large Language Models Trained on
Code"); pass@k is its mean over tasks. It is reported for each k in :data:`KS` that every task's
``n`` allows (``k <= n``), overall and per API.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable

from wapii_core.base.metric_kinds import Metric
from wapii_core.base.model import SampleResult
from wapii_core.base.protocols import Dataset

KS = (1, 5, 10)
"""The k values reported when the number of draws allows."""


def pass_at_k(n: int, c: int, k: int) -> float:
    """``1 - C(n-c, k) / C(n, k)`` for one task, as a numerically stable product.

    ``n`` draws, ``c`` of them correct, ``k <= n``.
    """
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n (n={n}, c={c}, k={k})")
    if n - c < k:
        return 1.0
    miss = 1.0
    for i in range(n - c + 1, n + 1):
        miss *= 1.0 - k / i
    return 1.0 - miss


def task_counts(results: Iterable[SampleResult]) -> dict[str, tuple[str, int, int]]:
    """``{sample id: (api, draws, correct draws)}``."""
    counts: dict[str, list[Any]] = {}
    for r in results:
        entry = counts.setdefault(r.sample, [r.api, 0, 0])
        entry[1] += 1
        entry[2] += r.verdict == "correct"
    return {sample: (api, n, c) for sample, (api, n, c) in counts.items()}


def estimate(tasks: Iterable[tuple[int, int]]) -> dict[str, Any]:
    """pass@k over ``(n, c)`` pairs for every k in :data:`KS` with ``k <= min(n)``."""
    tasks = list(tasks)
    if not tasks:
        return {"tasks": 0, "draws": None}
    draws = min(n for n, _ in tasks)
    out: dict[str, Any] = {"tasks": len(tasks), "draws": draws}
    for k in KS:
        if k <= draws:
            out[f"pass@{k}"] = sum(pass_at_k(n, c, k) for n, c in tasks) / len(tasks)
    return out


class PassAtK:
    """Metric provider: pass@1, pass@5 and pass@10 of a correct implementation, where n allows."""

    values = {
        **{f"pass@{k}": Metric("rate", f"unbiased estimate of the chance that at least one of {k} draws of a task "
                                       "is a correct implementation (Chen et al. 2021), averaged over tasks; given "
                                       f"only when every task has at least {k} draws") for k in KS},
        "draws": Metric("count", "the smallest number of draws of any task (n)"),
        "tasks": Metric("count", "the number of tasks estimated over"),
    }

    def aggregate(self, results: Iterable[SampleResult], dataset: Dataset | None = None) -> dict[str, Any]:
        """Overall values plus ``per_api``."""
        del dataset
        counts = task_counts(results)
        by_api: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for api, n, c in counts.values():
            by_api[api].append((n, c))
        summary = estimate((n, c) for _, n, c in counts.values())
        summary["per_api"] = {api: estimate(tasks) for api, tasks in sorted(by_api.items())}
        return summary
