"""The built-in metric provider ``wapii``: the paper's table rows (docs: metrics.md §7-8).

Every row is read off :func:`~wapii_core.judge.refstats.reference_statistics` (the reference pipeline's
own statistics), so the rows reproduce the published numbers by construction; the one change is
that a ratio with an empty denominator is ``None`` (not applicable) instead of the reference's
``0.0`` for "(e)" sample ratios without executable samples.
"""

from __future__ import annotations

from typing import Any, Iterable

from wapii_core.base.metric_kinds import Metric
from wapii_core.base.model import ERROR_KINDS, FIELDS, SampleResult
from wapii_core.base.protocols import Dataset
from wapii_core.judge.refstats import reference_statistics

# (row stem, reference statistic: a sample count, or an argument statistic less its _total/_executable suffix)
_SAMPLE_ROWS = (
    ("Correct implementations", "samples_correct"),
    ("Illegal implementations", "samples_illegal"),
    ("Correct URLs", "urls_correct"),
    ("Illegal URLs", "urls_illegal"),
    ("Correct methods", "methods_correct"),
    ("Illegal methods", "methods_illegal"),
)
_ARGUMENT_ROWS = (
    ("Correct argument names", "arguments_correct_name_wrt_expected"),
    ("Correct argument values", "arguments_correct_value_wrt_expected"),
    ("Missing arguments", "arguments_missing_wrt_expected"),
    ("Unexpected arguments", "arguments_unexpected_wrt_all"),
    ("Unnecessary arguments", "arguments_unnecessary_wrt_all"),
    ("Illegal arguments", "arguments_illegal_wrt_all"),
    ("Mean argument precision", "argument_name_mean_precision_wrt"),
    ("Mean argument recall", "argument_name_mean_recall_wrt"),
    ("Mean argument Jaccard index", "argument_name_mean_jaccard_wrt"),
    ("Mean argument value conditional accuracy", "argument_value_mean_accuracy_wrt_correct"),
)
_COUNT_ROWS = ("Total errors", "Incomplete implementations", "Runtime errors")
_INCOMPLETE = ("no_request", "incomplete_request", "timeout", "unsatisfiable")


def _pair(stem: str) -> list[str]:
    return [f"{stem} (t)", f"{stem} (e)"]


ROW_NAMES: list[str] = (
    ["Executable implementations (t)"]
    + [name for stem, _ in _SAMPLE_ROWS for name in _pair(stem)]
    + [name for stem, _ in _ARGUMENT_ROWS for name in _pair(stem)]
    + list(_COUNT_ROWS)
)
"""The 36 rows of ``summary.json``, in the paper's order."""

ARGUMENT_ROW_NAMES: list[str] = [name for stem, _ in _ARGUMENT_ROWS for name in _pair(stem)]
"""The rows that also exist per field (under ``"per_field"``)."""

_DESCRIPTIONS = {
    "Executable implementations": "share of samples whose call could be extracted and ran, issuing a request",
    "Correct implementations": "share of samples whose endpoint and every counted argument are correct",
    "Illegal implementations": "share of samples with an endpoint or an argument that the spec does not define",
    "Correct URLs": "share of samples whose URL matches the expected path template",
    "Illegal URLs": "share of samples whose URL matches no path of the spec",
    "Correct methods": "share of samples with the expected HTTP method",
    "Illegal methods": "share of samples whose method no matching path of the spec defines",
    "Correct argument names": "expected arguments present under the right name, over all expected arguments",
    "Correct argument values": "expected arguments present with the expected value, over all expected arguments",
    "Missing arguments": "expected arguments absent from the request, over all expected arguments",
    "Unexpected arguments": "arguments the request has but the expected one lacks, over all arguments",
    "Unnecessary arguments": "unexpected arguments that the expected endpoint defines, over all arguments",
    "Illegal arguments": "unexpected arguments that the expected endpoint does not define, over all arguments",
    "Mean argument precision": "mean over executable samples with arguments of correctly named / generated arguments",
    "Mean argument recall": "mean over samples with expected arguments of correctly named / expected arguments",
    "Mean argument Jaccard index": "mean over samples with arguments of correctly named / all (expected + unexpected)",
    "Mean argument value conditional accuracy": "mean over samples with correctly named arguments of the share "
                                                "with the correct value",
    "Total errors": "number of samples that could not be executed",
    "Incomplete implementations": "number of samples without a complete call (no request, incomplete call, "
                                  "generation timeout or unsatisfiable constraints)",
    "Runtime errors": "number of samples whose call failed when run",
}


def _describe(name: str) -> str:
    stem, _, scope = name.rpartition(" (")
    if not stem:
        return _DESCRIPTIONS[name].capitalize() + "."
    base = "over all samples" if scope == "t)" else "over executable samples only"
    return f"{_DESCRIPTIONS[stem].capitalize()}, {base}."


DESCRIPTIONS: dict[str, str] = {name: _describe(name) for name in ROW_NAMES}
"""One sentence per row."""


def _rows_for(stats: dict[str, Any], key: str) -> dict[str, float | None]:
    """The argument rows for one field (or ``"all"``): None where the reference has no entry."""
    rows: dict[str, float | None] = {}
    for stem, statistic in _ARGUMENT_ROWS:
        t, e = _pair(stem)
        rows[t] = stats[f"{statistic}_total"].get(key)
        rows[e] = stats[f"{statistic}_executable"].get(key)
    return rows


def paper_rows(results: Iterable[SampleResult]) -> dict[str, Any]:
    """The 36 rows, plus ``"per_field"`` (argument rows per field) and ``"counts"`` (sample counts)."""
    stats = reference_statistics(list(results))
    total, executable = stats["samples_total"], stats["samples_executable"]
    rows: dict[str, Any] = {"Executable implementations (t)": executable / total if total else None}
    for stem, statistic in _SAMPLE_ROWS:
        t, e = _pair(stem)
        rows[t] = stats[statistic] / total if total else None
        rows[e] = stats[statistic] / executable if executable else None
    rows.update(_rows_for(stats, "all"))
    rows["Total errors"] = stats["errors_total"]
    rows["Incomplete implementations"] = sum(stats[f"errors_{kind}"] for kind in _INCOMPLETE)
    rows["Runtime errors"] = stats["errors_runtime_error"]
    ordered: dict[str, Any] = {name: rows[name] for name in ROW_NAMES}
    ordered["per_field"] = {field: _rows_for(stats, field) for field in FIELDS}
    counts = {kind: stats[f"samples_{kind}"]
              for kind in ("total", "executable", "correct", "wrong", "illegal", "nonexecutable")}
    counts.update({kind: stats[f"errors_{kind}"] for kind in ERROR_KINDS})
    ordered["counts"] = counts
    return ordered


VALUES: dict[str, Metric] = {
    **{name: Metric("count" if name in _COUNT_ROWS else "rate", text) for name, text in DESCRIPTIONS.items()},
    **{f"per_field.*.{name}": Metric("rate", f"{DESCRIPTIONS[name][:-1]}, for one argument field (per_field).")
       for name in ARGUMENT_ROW_NAMES},
    "counts.*": Metric("count", "Number of samples of that kind (counts)."),
}
"""What the provider returns: each row's kind (the three error rows are counts, the rest shares) and sentence."""


class PaperMetrics:
    """Metric provider ``wapii``: the paper's rows overall and per API."""

    values: dict[str, Metric] = VALUES

    def aggregate(self, results: Iterable[SampleResult], dataset: Dataset | None) -> dict[str, Any]:
        """``{"overall": rows, "per_api": {api: rows}}`` (every API of the dataset, also without results)."""
        results = list(results)
        apis = sorted({*(dataset.specs if dataset is not None else ()), *(r.api for r in results)})
        return {
            "overall": paper_rows(results),
            "per_api": {api: paper_rows([r for r in results if r.api == api]) for api in apis},
        }
