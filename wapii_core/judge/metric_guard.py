"""Applying a metric provider so that its failure is recorded, never the end of a run.

A provider that raises is tried again on halves of the results until the samples it fails on are
found (at most :data:`MAX_FAILED_SAMPLES`); its value is then that of the other samples, and each
failed sample is listed with its error. A provider that fails without a culprit sample (or on too
many), or returns something that is not a JSON object, is recorded as ``{"error": "..."}``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from wapii_core.base.text import exception_line
from wapii_core.base.model import SampleResult
from wapii_core.base.protocols import Dataset, MetricProvider

MAX_FAILED_SAMPLES = 32
"""Samples a provider may fail on before its failure counts as a whole."""


@dataclass
class Outcome:
    """What one provider gave: ``value`` (None when it failed as a whole), ``error`` and ``sample_errors``."""

    value: dict[str, Any] | None
    error: str | None = None
    sample_errors: dict[str, str] = field(default_factory=dict)  # "<sample>#<draw>" -> error

    @property
    def failure(self) -> dict[str, Any] | None:
        """What summary.json records of a failure: ``{"error": ...}`` and/or ``{"sample_errors": {...}}``."""
        out: dict[str, Any] = {}
        if self.error is not None:
            out["error"] = self.error
        if self.sample_errors:
            out["sample_errors"] = self.sample_errors
        return out or None

    def recorded(self) -> dict[str, Any]:
        """The provider's entry in summary.json: its value with the failure, if any, beside it."""
        return {**(self.value or {}), **(self.failure or {})}


def apply_provider(provider: MetricProvider, results: list[SampleResult], dataset: Dataset) -> Outcome:
    """``provider.aggregate(results, dataset)``, guarded as the module docstring says."""
    value, error = _attempt(provider, results, dataset)
    if error is None:
        return Outcome(value)
    failed: dict[str, str] = {}
    _find_failing(provider, results, dataset, failed)
    if not failed or len(failed) > MAX_FAILED_SAMPLES:
        return Outcome(None, error if not failed else f"fails on more than {MAX_FAILED_SAMPLES} samples; {error}")
    rest = [r for r in results if r.key not in failed]
    value, rest_error = _attempt(provider, rest, dataset)
    if rest_error is not None:
        return Outcome(None, error)
    return Outcome(value, sample_errors=failed)


def _attempt(provider: MetricProvider, results: list[SampleResult],
             dataset: Dataset) -> tuple[dict[str, Any] | None, str | None]:
    try:
        value = provider.aggregate(results, dataset)
        if not isinstance(value, dict):
            return None, f"returned {type(value).__name__}, not a mapping"
        json.dumps(value)  # summary.json must be writable
        return value, None
    except Exception as exc:
        return None, exception_line(exc, 300)


def _find_failing(provider: MetricProvider, part: list[SampleResult], dataset: Dataset,
                  failed: dict[str, str]) -> None:
    """Add to ``failed`` the samples of ``part`` (which fails as a whole) that fail alone, by halving."""
    if len(failed) > MAX_FAILED_SAMPLES:
        return
    if len(part) == 1:
        failed[part[0].key] = _attempt(provider, part, dataset)[1] or "fails only with other samples"
        return
    middle = len(part) // 2
    for half in (part[:middle], part[middle:]):
        if _attempt(provider, half, dataset)[1] is not None:
            _find_failing(provider, half, dataset, failed)
