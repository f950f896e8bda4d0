"""The minimal detectable difference of a paired comparison over tasks (normal approximation).

A paired test of the mean of ``n`` per-task differences whose standard deviation is ``sd`` detects a
true mean difference of at least ``(z(1 - alpha/2) + z(power)) * sd / sqrt(n)`` with probability
``power`` at two-sided level ``alpha``. With ``alpha = 0.05`` and ``power = 0.8`` the factor is
``1.95996 + 0.84162 = 2.80158``. A gap below it is one that a run of this size cannot tell from
noise with that reliability: it may be real, but the test is not expected to find it.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Sequence

ALPHA = 0.05
POWER = 0.8


def detectable_factor(alpha: float = ALPHA, power: float = POWER) -> float:
    """``z(1 - alpha/2) + z(power)`` (2.80158 at the defaults)."""
    unit = NormalDist()
    return unit.inv_cdf(1 - alpha / 2) + unit.inv_cdf(power)


def minimal_detectable_difference(sd: float, n: int, alpha: float = ALPHA, power: float = POWER) -> float:
    """The smallest true mean difference a paired test over ``n`` tasks with per-task differences of
    standard deviation ``sd`` detects with probability ``power`` at two-sided level ``alpha``."""
    if n < 1:
        raise ValueError("need at least one task")
    return detectable_factor(alpha, power) * sd / math.sqrt(n)


def sample_sd(values: Sequence[float]) -> float:
    """The sample standard deviation (``n - 1`` in the denominator) of at least two values."""
    n = len(values)
    if n < 2:
        raise ValueError("need at least two values")
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
