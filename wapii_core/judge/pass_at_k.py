"""The ``pass_at_k`` metric provider: how a run's draws of each task agree.

With ``n`` draws of a task of which ``c`` are correct implementations (sample verdict ``correct``):

- **pass@k**: the probability that at least one of ``k`` draws picked without replacement is
  correct, ``1 - C(n - c, k) / C(n, k)`` (Chen et al. 2021, "Evaluating Large Language Models
  Trained on Code"), averaged over tasks;
- **pass^k**: the probability that all ``k`` such draws are correct, ``C(c, k) / C(n, k)``
  (tau-bench's reliability measure, Yao et al. 2024), averaged over tasks;
- **flip rate** (``n >= 2``): the probability that two different draws of a task, picked at random,
  disagree on being correct, ``c (n - c) / C(n, 2)``, averaged over tasks; **unstable tasks** counts
  the tasks with ``0 < c < n``;
- **minimal detectable difference**: the smallest gap in the rate of correct implementations that a
  paired test between this run and another over the same tasks detects with 80 % power at
  alpha = 0.05 (:mod:`wapii_core.judge.power`), when the other run's per-task rates spread like
  this run's and are uncorrelated with them (per-task differences of variance ``2 s^2``, ``s^2`` the
  sample variance of this run's per-task rates ``c / n``). Runs that solve the same tasks are told
  apart at smaller gaps: a paired test of two real runs states their own figure.

pass@k and pass^k are reported for each k in :data:`KS` that every task's ``n`` allows (``k <= n``),
overall and per API.
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


def pass_hat_k(n: int, c: int, k: int) -> float:
    """``C(c, k) / C(n, k)`` for one task: the chance that ``k`` of its ``n`` draws, picked without
    replacement, are all correct (``c`` correct, ``k <= n``)."""
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n (n={n}, c={c}, k={k})")
    if c < k:
        return 0.0
    out = 1.0
    for i in range(k):
        out *= (c - i) / (n - i)
    return out


def flip_rate(n: int, c: int) -> float:
    """``c (n - c) / C(n, 2)`` for one task of ``n >= 2`` draws, ``c`` correct: the chance that two
    different draws picked at random disagree on being correct."""
    if not 0 <= c <= n or n < 2:
        raise ValueError(f"need 0 <= c <= n and n >= 2 (n={n}, c={c})")
    return c * (n - c) / (n * (n - 1) / 2)


def detectable_difference(tasks: list[tuple[int, int]]) -> float | None:
    """The minimal detectable difference of a run whose tasks have ``(n, c)`` draws and correct draws
    (see the module's description); None with fewer than two tasks."""
    from wapii_core.judge.power import minimal_detectable_difference, sample_sd

    if len(tasks) < 2:
        return None
    rates = [c / n for n, c in tasks]
    return minimal_detectable_difference(2 ** 0.5 * sample_sd(rates), len(rates))


def task_counts(results: Iterable[SampleResult]) -> dict[str, tuple[str, int, int]]:
    """``{sample id: (api, draws, correct draws)}``."""
    counts: dict[str, list[Any]] = {}
    for r in results:
        entry = counts.setdefault(r.sample, [r.api, 0, 0])
        entry[1] += 1
        entry[2] += r.verdict == "correct"
    return {sample: (api, n, c) for sample, (api, n, c) in counts.items()}


def estimate(tasks: Iterable[tuple[int, int]]) -> dict[str, Any]:
    """pass@k and pass^k over ``(n, c)`` pairs for every k in :data:`KS` with ``k <= min(n)``, the flip
    rate and unstable tasks when every task has two draws or more, and the minimal detectable
    difference."""
    tasks = list(tasks)
    if not tasks:
        return {"tasks": 0, "draws": None}
    draws = min(n for n, _ in tasks)
    out: dict[str, Any] = {"tasks": len(tasks), "draws": draws}
    for k in KS:
        if k <= draws:
            out[f"pass@{k}"] = sum(pass_at_k(n, c, k) for n, c in tasks) / len(tasks)
    for k in KS:
        if k <= draws:
            out[f"pass^{k}"] = sum(pass_hat_k(n, c, k) for n, c in tasks) / len(tasks)
    if draws >= 2:
        out["flip rate"] = sum(flip_rate(n, c) for n, c in tasks) / len(tasks)
        out["unstable tasks"] = sum(0 < c < n for n, c in tasks)
    out["minimal detectable difference"] = detectable_difference(tasks)
    return out


class PassAtK:
    """Metric provider: pass@k and pass^k (k = 1, 5, 10 where n allows), flip rate and minimal
    detectable difference of a correct implementation."""

    values = {
        **{f"pass@{k}": Metric("rate", f"unbiased estimate of the chance that at least one of {k} draws of a task "
                                       "is a correct implementation (Chen et al. 2021), averaged over tasks; given "
                                       f"only when every task has at least {k} draws") for k in KS},
        **{f"pass^{k}": Metric("rate", f"the chance that all of {k} draws of a task are correct implementations "
                                       "(tau-bench's pass^k, C(c,k)/C(n,k)), averaged over tasks; given only when "
                                       f"every task has at least {k} draws") for k in KS},
        "flip rate": Metric("rate", "the chance that two different draws of a task disagree on being correct, "
                                    "c(n-c)/C(n,2), averaged over tasks; given when every task has two draws or more"),
        "unstable tasks": Metric("count", "tasks with some draws correct and some not"),
        "minimal detectable difference": Metric("rate", "the smallest gap in correct implementations a paired test "
                                                        "against another run of this size detects (80 % power, "
                                                        "alpha 0.05), if that run's per-task results spread like "
                                                        "this run's and are uncorrelated with them"),
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
