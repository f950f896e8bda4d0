"""Uncertainty of the paper's rates: bootstrap intervals and a paired test between two runs.

- :func:`bootstrap_intervals`: a seeded percentile bootstrap that resamples *tasks* (all draws of a
  task stay together) with replacement and recomputes every rate row on each resample, as one
  matrix product over all resamples (:mod:`wapii_core.report.rate_terms`).
- :func:`paired_test`: for two runs over the same tasks, the difference in the rate of correct
  implementations, with a paired bootstrap interval (the same resampled tasks for both runs) and a
  p-value: the **exact McNemar test** (two-sided binomial test on the discordant tasks) when every
  task has one draw in each run, else a seeded **paired sign-flip permutation test** on the per-task
  differences in correct rate; beside it, the **minimal detectable difference** at the pair's size
  (:mod:`wapii_core.judge.power`: 80 % power, alpha = 0.05, from the standard deviation of the
  per-task differences), so that a reader sees whether the gap could be noise.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Iterable, Iterator

from wapii_core.base.model import SampleResult
from wapii_core.report.rate_terms import RATE_ROWS, Terms, task_terms

DEFAULT_RESAMPLES = 2000
DEFAULT_SEED = 0
CONFIDENCE = 0.95

Interval = tuple[float, float]


BLOCK_ENTRIES = 4_000_000
"""At most this many weights (resamples × tasks) are held at once."""


def _resample_weights(tasks: int, resamples: int, seed: int) -> Iterator[Any]:
    """Blocks of a (resamples, tasks) matrix: how often each task is drawn in each resample."""
    import numpy as np

    rng = np.random.default_rng(seed)
    block = max(1, BLOCK_ENTRIES // max(1, tasks))
    for start in range(0, resamples, block):
        size = min(block, resamples - start)
        yield rng.multinomial(tasks, np.full(tasks, 1.0 / tasks), size=size).astype(float)


def _percentiles(values: Any, confidence: float) -> list[Interval | None]:
    """Percentile interval of each column of ``values`` (NaN: the row is undefined in that resample)."""
    import numpy as np

    tail = 100 * (1 - confidence) / 2
    out: list[Interval | None] = []
    for column in values.T:
        defined = column[~np.isnan(column)]
        if defined.size == 0:
            out.append(None)
            continue
        low, high = np.percentile(defined, [tail, 100 - tail])
        out.append((float(low), float(high)))
    return out


def bootstrap_intervals(terms: Terms, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                        confidence: float = CONFIDENCE) -> dict[str, Interval | None]:
    """A ``confidence`` percentile interval for every rate row (None where the rate is undefined)."""
    import numpy as np

    if not terms.tasks or resamples <= 0:
        return dict.fromkeys(RATE_ROWS)
    blocks = []
    for weights in _resample_weights(len(terms.tasks), resamples, seed):
        num, den = weights @ terms.num, weights @ terms.den
        blocks.append(np.where(den > 0, num / np.where(den > 0, den, 1), np.nan))
    rates = np.concatenate(blocks)
    point_den = terms.den.sum(axis=0)
    intervals = _percentiles(rates, confidence)
    return {row: (iv if point_den[j] > 0 else None) for j, (row, iv) in enumerate(zip(RATE_ROWS, intervals))}


def intervals_for(results: Iterable[SampleResult], **options: Any) -> dict[str, Interval | None]:
    """:func:`bootstrap_intervals` of a run's results."""
    return bootstrap_intervals(task_terms(results), **options)


@dataclass
class PairedTest:
    """The paired comparison of the correct-implementation rate of run A against run B."""

    tasks: int
    rate_a: float
    rate_b: float
    difference: float  # rate_a - rate_b
    interval: Interval  # paired bootstrap interval of the difference
    p_value: float
    method: str  # "exact McNemar" or "paired permutation"
    a_only: float  # tasks (draw-weighted) correct in A but not in B
    b_only: float
    mdd: float | None = None  # minimal detectable difference (80 % power, alpha 0.05); None with one task

    @property
    def detectable(self) -> bool | None:
        """Whether the observed gap reaches the minimal detectable difference (None without one)."""
        return None if self.mdd is None else abs(self.difference) >= self.mdd

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value for ``b`` and ``c`` discordant pairs (binomial, p = 1/2)."""
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def _per_task_correct(results: Iterable[SampleResult]) -> dict[str, tuple[int, int]]:
    """``{task: (draws, correct draws)}``."""
    out: dict[str, list[int]] = {}
    for r in results:
        entry = out.setdefault(r.sample, [0, 0])
        entry[0] += 1
        entry[1] += r.verdict == "correct"
    return {k: (n, c) for k, (n, c) in out.items()}


def paired_test(results_a: Iterable[SampleResult], results_b: Iterable[SampleResult],
                resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                confidence: float = CONFIDENCE) -> PairedTest:
    """Compare the rate of correct implementations of two runs over the same tasks.

    Raises ValueError when the runs do not cover the same tasks.
    """
    import numpy as np

    a, b = _per_task_correct(results_a), _per_task_correct(results_b)
    if set(a) != set(b) or not a:
        raise ValueError("a paired test needs two runs over the same, non-empty set of tasks")
    tasks = sorted(a)
    rate_a = np.array([a[t][1] / a[t][0] for t in tasks])
    rate_b = np.array([b[t][1] / b[t][0] for t in tasks])
    diff = rate_a - rate_b
    boot = np.concatenate([weights @ diff / len(tasks) for weights in _resample_weights(len(tasks), resamples, seed)])
    tail = 100 * (1 - confidence) / 2
    low, high = np.percentile(boot, [tail, 100 - tail])
    single = all(a[t][0] == 1 and b[t][0] == 1 for t in tasks)
    a_only, b_only = float(np.clip(diff, 0, None).sum()), float(np.clip(-diff, 0, None).sum())
    if single:
        p_value, method = mcnemar_exact(int(a_only), int(b_only)), "exact McNemar"
    else:
        p_value, method = _sign_flip_p(diff, resamples, seed), "paired permutation"
    return PairedTest(tasks=len(tasks), rate_a=float(rate_a.mean()), rate_b=float(rate_b.mean()),
                      difference=float(diff.mean()), interval=(float(low), float(high)), p_value=p_value,
                      method=method, a_only=a_only, b_only=b_only, mdd=paired_mdd(diff.tolist()))


def paired_mdd(differences: list[float]) -> float | None:
    """The minimal detectable difference of a paired test over these per-task differences (None with
    fewer than two tasks)."""
    from wapii_core.judge.power import minimal_detectable_difference, sample_sd

    if len(differences) < 2:
        return None
    return minimal_detectable_difference(sample_sd(differences), len(differences))


def _sign_flip_p(diff: Any, resamples: int, seed: int) -> float:
    """Two-sided p-value of the mean difference under random sign flips of the per-task differences."""
    import numpy as np

    rng = np.random.default_rng(seed)
    signs = rng.choice((-1.0, 1.0), size=(resamples, diff.size))
    flipped = np.abs(signs @ diff)
    observed = abs(diff.sum())
    return float((1 + np.count_nonzero(flipped >= observed - 1e-12)) / (resamples + 1))
