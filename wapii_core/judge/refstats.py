"""The published WAPIIBench evaluation's statistics dict, name for name and value for value.

:func:`reference_statistics` aggregates judged samples exactly as the reference pipeline's
``evaluate`` does (the conformance corpora hold its output), including its conventions:

- count dicts (``arguments_*``) hold only keys with a positive total;
- a ratio dict holds every key of its numerator or denominator (``0.0`` where the numerator has
  none), so a per-field entry is absent exactly where both counts are zero;
- "mean" ratios average the per-sample ratios over the samples that have the denominator's key
  (the location counts): over executable samples, except that the ``_total`` variants of recall,
  Jaccard and value accuracy (w.r.t. all / expected) also count every non-executable sample for
  each field of its expected config and for ``all``;
- ``*_wrt_executable`` sample ratios are ``0.0`` when nothing was executable (the reference
  divides by infinity); ``errors_*_wrt_errors`` are ``0`` without errors.

Samples are summed in the reference's order (API, then index sorted as a string, then draw), so
even floating-point sums agree. The one addition: with no samples at all, ratios over the total are
``None`` (the reference would divide by zero).
"""

from __future__ import annotations

from typing import Any, Iterable

from wapii_core.judge.compare import SampleCounts, sample_counts
from wapii_core.base.model import ERROR_KINDS, SampleResult

_COUNT_BUCKETS = ("all", "expected", "unexpected", "correct_name", "correct_value", "missing", "unnecessary", "illegal")
_RATIO_BUCKETS = ("precision", "recall", "jaccard", "value_accuracy_wrt_all", "value_accuracy_wrt_expected",
                  "value_accuracy_wrt_correct_name")


def _reference_order(result: SampleResult) -> tuple[str, str, int]:
    api, _, index = result.sample.rpartition("/")
    return (api or result.api, index, result.draw)


def _accumulate(target: dict[str, Any], values: dict[str, Any]) -> None:
    for key, value in values.items():
        target[key] = target.get(key, 0) + value


def _positive(counter: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in counter.items() if value > 0}


def _divide(numerator: dict[str, float], denominator: dict[str, float]) -> dict[str, float]:
    """Element-wise ``numerator / denominator`` over the union of keys (a missing key counts 0)."""
    keys = list(dict.fromkeys([*numerator, *denominator]))
    return {key: numerator.get(key, 0) / denominator[key] for key in keys if denominator.get(key, 0)}


def _ratio(count: int, total: int | float) -> float | None:
    return count / total if total else None


class _Totals:
    """Running sums over samples, named after the reference's variables."""

    def __init__(self) -> None:
        self.samples = {"total": 0, "executable": 0, "correct": 0, "wrong": 0, "illegal": 0, "nonexecutable": 0}
        self.errors = {kind: 0 for kind in ERROR_KINDS}
        self.urls = {"correct": 0, "wrong": 0, "illegal": 0}
        self.methods = {"correct": 0, "wrong": 0, "illegal": 0}
        self.endpoints = {"correct": 0, "wrong": 0, "illegal": 0}
        self.total = {b: {} for b in ("all", "expected", "missing")}  # over all samples
        self.executable = {b: {} for b in _COUNT_BUCKETS}  # over executable samples
        self.ratio_sums = {b: {} for b in _RATIO_BUCKETS}
        self.locations_total = {b: {} for b in ("all", "expected")}
        self.locations_executable = {b: {} for b in ("all", "expected", "correct_name", "retrieved")}

    def add(self, result: SampleResult, counts: SampleCounts) -> None:
        self.samples["total"] += 1
        self.samples[result.verdict] += 1
        if not counts.executable:
            self.errors[result.error or "no_request"] += 1
        else:
            self.samples["executable"] += 1
            self.urls[result.url] += 1
            self.methods[result.method] += 1
            self.endpoints[result.endpoint] += 1
            for bucket in _COUNT_BUCKETS:
                _accumulate(self.executable[bucket], getattr(counts, bucket))
            for bucket in ("all", "expected", "correct_name"):
                _accumulate(self.locations_executable[bucket], dict.fromkeys(getattr(counts, bucket), 1))
            _accumulate(self.locations_executable["retrieved"],
                        dict.fromkeys({*counts.unexpected, *counts.correct_name}, 1))
        for bucket in ("all", "expected", "missing"):
            _accumulate(self.total[bucket], getattr(counts, bucket))
        for bucket in _RATIO_BUCKETS:
            _accumulate(self.ratio_sums[bucket], getattr(counts, bucket))
        for bucket in ("all", "expected"):
            _accumulate(self.locations_total[bucket], dict.fromkeys(getattr(counts, bucket), 1))


def reference_statistics(results: Iterable[SampleResult]) -> dict[str, Any]:
    """The reference pipeline's ``statistics`` entry for ``results`` (docs: metrics.md §7-8)."""
    t = _Totals()
    for result in sorted(results, key=_reference_order):
        t.add(result, sample_counts(result))

    n = t.samples["total"]
    n_exec = t.samples["executable"] or float("inf")
    n_err = sum(t.errors.values())
    stats: dict[str, Any] = {f"samples_{k}": v for k, v in t.samples.items()}
    for kind in ("executable", "correct", "wrong", "illegal"):
        stats[f"samples_{kind}_wrt_total"] = _ratio(t.samples[kind], n)
        if kind != "executable":
            stats[f"samples_{kind}_wrt_executable"] = t.samples[kind] / n_exec
    stats["errors_total"] = n_err
    stats["errors_total_wrt_samples"] = _ratio(n_err, n)
    for kind in ERROR_KINDS:
        stats[f"errors_{kind}"] = t.errors[kind]
        stats[f"errors_{kind}_wrt_samples"] = _ratio(t.errors[kind], n)
        stats[f"errors_{kind}_wrt_errors"] = t.errors[kind] / n_err if n_err else 0
    for name, verdicts in (("urls", t.urls), ("methods", t.methods), ("endpoints", t.endpoints)):
        for verdict, count in verdicts.items():
            stats[f"{name}_{verdict}"] = count
            stats[f"{name}_{verdict}_wrt_total"] = _ratio(count, n)
            stats[f"{name}_{verdict}_wrt_executable"] = count / n_exec

    ex = {b: _positive(v) for b, v in t.executable.items()}
    tot = {b: _positive(v) for b, v in t.total.items()}
    retrieved = _positive({k: ex["correct_name"].get(k, 0) + ex["unexpected"].get(k, 0)
                           for k in {*ex["correct_name"], *ex["unexpected"]}})
    stats.update({
        "arguments_all_total": tot["all"],
        "arguments_all_executable": ex["all"],
        "arguments_expected_total": tot["expected"],
        "arguments_expected_executable": ex["expected"],
        "arguments_unexpected": ex["unexpected"],
        "arguments_correct_name": ex["correct_name"],
        "arguments_correct_value": ex["correct_value"],
        "arguments_missing_total": tot["missing"],
        "arguments_missing_executable": ex["missing"],
        "arguments_unnecessary": ex["unnecessary"],
        "arguments_illegal": ex["illegal"],
    })
    for scope, base in (("total", tot), ("executable", ex)):
        stats[f"arguments_unexpected_wrt_all_{scope}"] = _divide(ex["unexpected"], base["all"])
        stats[f"arguments_correct_name_wrt_expected_{scope}"] = _divide(ex["correct_name"], base["expected"])
        stats[f"arguments_correct_value_wrt_expected_{scope}"] = _divide(ex["correct_value"], base["expected"])
        stats[f"arguments_unnecessary_wrt_all_{scope}"] = _divide(ex["unnecessary"], base["all"])
        stats[f"arguments_missing_wrt_expected_{scope}"] = _divide(base["missing"], base["expected"])
        stats[f"arguments_illegal_wrt_all_{scope}"] = _divide(ex["illegal"], base["all"])
        stats[f"argument_name_sum_precision_wrt_{scope}"] = _divide(ex["correct_name"], retrieved)
        stats[f"argument_name_sum_recall_wrt_{scope}"] = _divide(ex["correct_name"], base["expected"])
        stats[f"argument_name_sum_jaccard_wrt_{scope}"] = _divide(ex["correct_name"], base["all"])
        stats[f"argument_value_sum_accuracy_wrt_all_{scope}"] = _divide(ex["correct_value"], base["all"])
        stats[f"argument_value_sum_accuracy_wrt_expected_{scope}"] = _divide(ex["correct_value"], base["expected"])
        stats[f"argument_value_sum_accuracy_wrt_correct_{scope}"] = _divide(ex["correct_value"], ex["correct_name"])

    sums = {b: _positive(v) for b, v in t.ratio_sums.items()}
    loc_ex = t.locations_executable
    for scope, loc in (("total", t.locations_total), ("executable", loc_ex)):
        stats[f"argument_name_mean_precision_wrt_{scope}"] = _divide(sums["precision"], loc_ex["retrieved"])
        stats[f"argument_name_mean_recall_wrt_{scope}"] = _divide(sums["recall"], loc["expected"])
        stats[f"argument_name_mean_jaccard_wrt_{scope}"] = _divide(sums["jaccard"], loc["all"])
        stats[f"argument_value_mean_accuracy_wrt_all_{scope}"] = _divide(sums["value_accuracy_wrt_all"], loc["all"])
        stats[f"argument_value_mean_accuracy_wrt_expected_{scope}"] = _divide(
            sums["value_accuracy_wrt_expected"], loc["expected"])
        stats[f"argument_value_mean_accuracy_wrt_correct_{scope}"] = _divide(
            sums["value_accuracy_wrt_correct_name"], loc_ex["correct_name"])
    return stats
