"""Aggregation: the reference statistics and the paper's rows, checked against hand computation."""

from __future__ import annotations

from pathlib import Path

import pytest

from wapii_core.judge.metrics import ARGUMENT_ROW_NAMES, ROW_NAMES, PaperMetrics, paper_rows
from wapii_core.base.model import SampleResult
from wapii_core.base.protocols import Dataset
from wapii_core.judge.refstats import reference_statistics


def executable(sample: str, verdict: str, arguments: dict, **verdicts: str) -> SampleResult:
    api = sample.split("/")[0]
    return SampleResult(sample=sample, api=api, verdict=verdict, arguments=arguments,
                        **{"url": "correct", "method": "correct", "endpoint": "correct", **verdicts})


# S1: all correct.  S2: a wrong value, an unnecessary and a missing argument.  S3: did not run.
S1 = executable("a/0", "correct", {"headers": {"Accept": "correct", "Authorization": "correct"},
                                   "params": {"limit": "correct"}})
S2 = executable("a/1", "wrong", {"headers": {"Accept": "correct", "Authorization": "correct"},
                                 "params": {"limit": "incorrect_value", "extra": "unnecessary"},
                                 "path_params": {"id": "missing"}})
S3 = SampleResult(sample="b/0", api="b", verdict="nonexecutable", error="runtime_error",
                  expected_arguments={"headers": 0, "data": 2})  # headers: only special ones
RUN = [S2, S3, S1]  # order must not matter


def approx(value: float) -> object:
    return pytest.approx(value, abs=1e-12)


def test_reference_statistics_by_hand() -> None:
    stats = reference_statistics(RUN)
    assert {k: stats[f"samples_{k}"] for k in ("total", "executable", "correct", "wrong", "illegal", "nonexecutable")} \
        == {"total": 3, "executable": 2, "correct": 1, "wrong": 1, "illegal": 0, "nonexecutable": 1}
    assert stats["samples_correct_wrt_executable"] == 0.5
    assert stats["errors_runtime_error"] == 1 and stats["errors_runtime_error_wrt_errors"] == 1.0
    assert stats["errors_timeout_wrt_errors"] == 0.0
    assert stats["arguments_expected_total"] == {"headers": 2, "params": 2, "path_params": 1, "data": 2, "all": 7}
    assert stats["arguments_expected_executable"] == {"headers": 2, "params": 2, "path_params": 1, "all": 5}
    assert stats["arguments_all_total"] == {"headers": 2, "params": 3, "path_params": 1, "data": 2, "all": 8}
    assert stats["arguments_correct_name"] == {"headers": 2, "params": 2, "all": 4}
    assert stats["arguments_correct_value"] == {"headers": 2, "params": 1, "all": 3}
    assert stats["arguments_missing_total"] == {"path_params": 1, "data": 2, "all": 3}
    assert stats["arguments_unnecessary"] == {"params": 1, "all": 1}
    assert stats["arguments_illegal"] == {}  # zero counts are left out ...
    assert stats["arguments_illegal_wrt_all_total"] == {  # ... but ratios with a denominator are 0.0
        "headers": 0.0, "params": 0.0, "path_params": 0.0, "data": 0.0, "all": 0.0}
    assert "data" not in stats["arguments_correct_name_wrt_expected_executable"]
    assert stats["argument_name_sum_precision_wrt_total"] == {"headers": 1.0, "params": approx(2 / 3), "all": 0.8}
    # a mean over samples having the key; the non-executable S3 has "headers" (count 0) and "all"
    assert stats["argument_name_mean_recall_wrt_total"] == {
        "headers": approx(2 / 3), "params": 1.0, "path_params": 0.0, "data": 0.0, "all": approx(5 / 9)}
    assert stats["argument_name_mean_recall_wrt_executable"] == {
        "headers": 1.0, "params": 1.0, "path_params": 0.0, "all": approx(5 / 6)}
    assert stats["argument_name_mean_precision_wrt_total"] == stats["argument_name_mean_precision_wrt_executable"]
    assert stats["argument_name_mean_precision_wrt_total"] == {"headers": 1.0, "params": 0.75, "all": approx(5 / 6)}
    assert stats["argument_value_mean_accuracy_wrt_correct_total"] == {"headers": 1.0, "params": 0.5, "all": 0.75}


def test_paper_rows_by_hand() -> None:
    rows = paper_rows(RUN)
    expected = {
        "Executable implementations (t)": 2 / 3,
        "Correct implementations (t)": 1 / 3, "Correct implementations (e)": 1 / 2,
        "Illegal implementations (t)": 0.0, "Illegal implementations (e)": 0.0,
        "Correct URLs (t)": 2 / 3, "Correct URLs (e)": 1.0,
        "Illegal URLs (t)": 0.0, "Illegal URLs (e)": 0.0,
        "Correct methods (t)": 2 / 3, "Correct methods (e)": 1.0,
        "Illegal methods (t)": 0.0, "Illegal methods (e)": 0.0,
        "Correct argument names (t)": 4 / 7, "Correct argument names (e)": 4 / 5,
        "Correct argument values (t)": 3 / 7, "Correct argument values (e)": 3 / 5,
        "Missing arguments (t)": 3 / 7, "Missing arguments (e)": 1 / 5,
        "Unexpected arguments (t)": 1 / 8, "Unexpected arguments (e)": 1 / 6,
        "Unnecessary arguments (t)": 1 / 8, "Unnecessary arguments (e)": 1 / 6,
        "Illegal arguments (t)": 0.0, "Illegal arguments (e)": 0.0,
        "Mean argument precision (t)": 5 / 6, "Mean argument precision (e)": 5 / 6,
        "Mean argument recall (t)": 5 / 9, "Mean argument recall (e)": 5 / 6,
        "Mean argument Jaccard index (t)": 1.5 / 3, "Mean argument Jaccard index (e)": 1.5 / 2,
        "Mean argument value conditional accuracy (t)": 0.75, "Mean argument value conditional accuracy (e)": 0.75,
        "Total errors": 1, "Incomplete implementations": 0, "Runtime errors": 1,
    }
    assert list(rows)[:36] == ROW_NAMES
    assert {k: rows[k] for k in ROW_NAMES} == {k: approx(v) for k, v in expected.items()}
    assert rows["counts"] == {"total": 3, "executable": 2, "correct": 1, "wrong": 1, "illegal": 0,
                              "nonexecutable": 1, "timeout": 0, "unsatisfiable": 0, "no_request": 0,
                              "incomplete_request": 0, "runtime_error": 1}
    headers, data = rows["per_field"]["headers"], rows["per_field"]["data"]
    assert set(headers) == set(ARGUMENT_ROW_NAMES)
    assert headers["Correct argument names (t)"] == 1.0
    assert headers["Mean argument recall (t)"] == approx(2 / 3)  # S3's zero-count headers count in (t)
    assert headers["Mean argument recall (e)"] == 1.0
    assert data["Correct argument names (t)"] == 0.0
    assert data["Correct argument names (e)"] is None  # no executable sample expects data
    assert data["Mean argument precision (t)"] is None
    assert rows["per_field"]["path_params"]["Missing arguments (e)"] == 1.0


def test_empty_denominators_are_none() -> None:
    empty = paper_rows([])
    assert all(empty[name] is None for name in ROW_NAMES if name not in ("Total errors", "Incomplete implementations",
                                                                          "Runtime errors"))
    assert (empty["Total errors"], empty["Incomplete implementations"], empty["Runtime errors"]) == (0, 0, 0)
    broken = paper_rows([S3, SampleResult(sample="b/1", api="b", verdict="nonexecutable", error="timeout")])
    assert broken["Executable implementations (t)"] == 0.0
    assert broken["Correct implementations (e)"] is None
    assert broken["Correct argument names (t)"] == 0.0  # S3 expects two data arguments
    assert broken["Correct argument names (e)"] is None
    assert broken["Mean argument recall (t)"] == 0.0 and broken["Mean argument recall (e)"] is None
    assert broken["Mean argument precision (t)"] is None
    assert (broken["Total errors"], broken["Incomplete implementations"], broken["Runtime errors"]) == (2, 1, 1)
    # the reference itself divides by infinity here
    assert reference_statistics([S3])["samples_correct_wrt_executable"] == 0.0


def test_illegal_and_error_kinds_are_counted() -> None:
    illegal = executable("a/2", "illegal", {"params": {"p": "illegal"}}, url="illegal", method="illegal",
                         endpoint="illegal")
    incomplete = [SampleResult(sample=f"c/{i}", api="c", verdict="nonexecutable", error=kind)
                  for i, kind in enumerate(("no_request", "incomplete_request", "timeout", "unsatisfiable"))]
    rows = paper_rows([illegal, *incomplete])
    assert rows["Illegal implementations (e)"] == 1.0 and rows["Illegal URLs (t)"] == 0.2
    assert rows["Illegal methods (e)"] == 1.0 and rows["Illegal arguments (e)"] == 1.0
    assert rows["Incomplete implementations"] == 4 and rows["Runtime errors"] == 0
    assert rows["Mean argument precision (t)"] == 0.0


def test_row_names_and_descriptions() -> None:
    assert len(ROW_NAMES) == len(set(ROW_NAMES)) == 36
    assert ROW_NAMES[0] == "Executable implementations (t)" and ROW_NAMES[-1] == "Runtime errors"
    assert ROW_NAMES[1:3] == ["Correct implementations (t)", "Correct implementations (e)"]
    provider = PaperMetrics()
    assert list(provider.values)[:len(ROW_NAMES)] == ROW_NAMES
    assert all(m.description.endswith(".") and "\n" not in m.description for m in provider.values.values())
    assert [name for name in ROW_NAMES if provider.values[name].kind == "count"] == ROW_NAMES[-3:]


def test_provider_aggregates_overall_and_per_api(tmp_path: Path) -> None:
    dataset = Dataset(name="toy", samples=[], specs={"a": tmp_path / "a.yaml", "z": tmp_path / "z.yaml"},
                      display_names={}, source=tmp_path / "dataset.json", sha256="0" * 64)
    summary = PaperMetrics().aggregate(iter(RUN), dataset)
    assert summary["overall"] == paper_rows(RUN)
    assert list(summary["per_api"]) == ["a", "b", "z"]
    assert summary["per_api"]["a"] == paper_rows([S1, S2])
    assert summary["per_api"]["a"]["Correct implementations (t)"] == 0.5
    assert summary["per_api"]["z"]["Correct implementations (t)"] is None
