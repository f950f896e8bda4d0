"""The ``pass_at_k`` and ``spec_validation`` metric providers on constructed results."""

from __future__ import annotations

from math import comb

import pytest

from support import WAPIIBENCH, needs_shared
from wapii_core.datasets.loader import load_dataset_dir, load_demo
from wapii_core.base.model import SampleResult
from wapii_core.judge.pass_at_k import PassAtK, pass_at_k
from wapii_core.judge.spec_validation import SpecValidation

DEMO = "https://api.larchwood-library.example/v2"


def closed_form(n: int, c: int, k: int) -> float:
    return 1 - comb(n - c, k) / comb(n, k)


@pytest.mark.parametrize("n,c,k", [(1, 0, 1), (1, 1, 1), (5, 2, 1), (5, 2, 5), (10, 3, 5), (10, 0, 10),
                                   (10, 1, 10), (20, 7, 10), (200, 13, 10)])
def test_pass_at_k_is_the_closed_form(n, c, k):
    assert pass_at_k(n, c, k) == pytest.approx(closed_form(n, c, k), abs=1e-12)


def test_pass_at_k_refuses_impossible_counts():
    with pytest.raises(ValueError):
        pass_at_k(5, 6, 1)
    with pytest.raises(ValueError):
        pass_at_k(5, 2, 6)


def draws(sample: str, api: str, n: int, c: int) -> list[SampleResult]:
    return [SampleResult(sample=sample, draw=d, api=api, verdict="correct" if d < c else "wrong") for d in range(n)]


def test_provider_averages_over_tasks_and_reports_only_the_ks_n_allows():
    results = draws("a/0", "a", 10, 3) + draws("a/1", "a", 10, 0) + draws("b/0", "b", 10, 10)
    summary = PassAtK().aggregate(results, None)
    for k in (1, 5, 10):
        expected = (closed_form(10, 3, k) + 0 + 1) / 3
        assert summary[f"pass@{k}"] == pytest.approx(expected)
    assert summary["draws"] == 10 and summary["tasks"] == 3
    assert summary["per_api"]["a"]["pass@5"] == pytest.approx(closed_form(10, 3, 5) / 2)
    assert summary["per_api"]["b"]["pass@10"] == 1.0

    few = PassAtK().aggregate(draws("a/0", "a", 5, 1) + draws("a/1", "a", 6, 6), None)
    assert few["draws"] == 5 and "pass@10" not in few
    assert few["pass@1"] == pytest.approx((1 / 5 + 1) / 2)
    assert few["pass@5"] == pytest.approx((1 + 1) / 2)
    assert PassAtK.values["pass@1"].kind == "rate" and PassAtK.values["tasks"].kind == "count"


def result(index: int, request: dict, verdict: str = "wrong", api: str = "larchwood") -> SampleResult:
    return SampleResult(sample=f"{api}/{index}", api=api, verdict=verdict, request=request)


@pytest.fixture(scope="module")
def demo():
    return load_demo()


def test_spec_validation_flags_wrong_type_bad_enum_and_missing_required(demo):
    results = [
        result(0, {"url": f"{DEMO}/books", "method": "get", "headers": {},
                   "params": {"published_after": "last year", "limit": 10}}),            # wrong type
        result(1, {"url": f"{DEMO}/books", "method": "get", "headers": {}, "params": {"genre": "poetics"}}),  # enum
        result(2, {"url": f"{DEMO}/reports/overdue", "method": "get", "headers": {},
                   "params": {"format": "csv"}}),                                       # branch_id is required
        result(3, {"url": f"{DEMO}/books/12", "method": "get", "headers": {},
                   "params": {"include": ["copies", "reviews"]}}, verdict="correct"),   # valid
        result(4, {"url": f"{DEMO}/no/such/path", "method": "get", "headers": {}}),      # illegal URL: not validated
        SampleResult(sample="larchwood/5", api="larchwood", verdict="nonexecutable", error="runtime_error"),
    ]
    summary = SpecValidation().aggregate(results, demo)
    assert summary["Executed requests"] == 5 and summary["Validated requests"] == 4
    assert summary["Wrong types (v)"] == 0.25
    assert summary["Bad enum values (v)"] == 0.25
    assert summary["Missing required arguments (v)"] == 0.25
    assert summary["Requests with schema violations (v)"] == 0.75
    assert summary["Violations"] == {"type": 1, "enum": 1, "missing_required": 1, "other": 0}
    assert summary["Correct implementations with schema violations"] == 0
    messages = summary["violations"]
    assert "published_after" in messages["larchwood/0#0"][0]
    assert "poetics" in messages["larchwood/1#0"][0]
    assert "branch_id" in messages["larchwood/2#0"][0]
    assert "larchwood/3#0" not in messages and "larchwood/4#0" not in messages
    assert summary["per_api"]["larchwood"]["Validated requests"] == 4


def test_spec_validation_checks_body_types_and_required_properties(demo):
    ok = {"title": "T", "contributors": [{"name": "A", "role": "author"}]}
    results = [
        result(0, {"url": f"{DEMO}/books", "method": "post", "headers": {"Content-Type": "application/json"},
                   "data": ok}, verdict="correct"),
        result(1, {"url": f"{DEMO}/books", "method": "post", "headers": {"Content-Type": "application/json"},
                   "data": {**ok, "contributors": [{"name": "A", "role": "ghost"}]}}),
        result(2, {"url": f"{DEMO}/books", "method": "post", "headers": {"Content-Type": "application/json"},
                   "data": {"title": 7}}),
    ]
    summary = SpecValidation().aggregate(results, demo)
    messages = summary["violations"]
    assert "larchwood/0#0" not in messages
    assert any("ghost" in m for m in messages["larchwood/1#0"])
    assert any("contributors" in m for m in messages["larchwood/2#0"])
    assert any("title" in m and "type" in m for m in messages["larchwood/2#0"])
    assert summary["Violations"]["enum"] == 1 and summary["Violations"]["type"] == 1


@needs_shared("wapiibench", "specs", "slack.yaml")
def test_a_form_only_operation_judges_the_values_and_flags_the_content_type():
    dataset = load_dataset_dir(WAPIIBENCH, "wapiibench")
    url = "https://slack.com/api/admin.users.session.invalidate"
    results = [
        result(0, {"url": url, "method": "post", "headers": {"Content-Type": "application/json"},
                   "data": {"team_id": "T1", "session_id": 12}}, api="slack"),
        result(1, {"url": url, "method": "post",
                   "headers": {"Content-Type": "application/x-www-form-urlencoded"},
                   "data": {"team_id": "T1", "session_id": "12"}}, api="slack"),
        result(2, {"url": url, "method": "post",
                   "headers": {"Content-Type": "application/x-www-form-urlencoded"},
                   "data": {"team_id": "T1", "session_id": "twelve"}}, api="slack"),
    ]
    summary = SpecValidation().aggregate(results, dataset)
    assert set(summary["violations"]) == {"slack/2#0"}
    assert "session_id" in summary["violations"]["slack/2#0"][0]
    assert summary["Undeclared content type (b)"] == pytest.approx(1 / 3)
