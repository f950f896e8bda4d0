"""pass^k, the flip rate across draws and the minimal detectable difference, each on a hand-computed
case, and where a reader finds them: summary.json, report.md and every paired test."""

from __future__ import annotations

import json
import math

import pytest

from support import run_cli
from test_report import draws_of, write_run
from wapii_core.base.metric_kinds import record
from wapii_core.judge.metrics import PaperMetrics
from wapii_core.judge.pass_at_k import PassAtK, estimate, flip_rate, pass_at_k, pass_hat_k
from wapii_core.judge.power import detectable_factor, minimal_detectable_difference
from wapii_core.report.stats import paired_mdd, paired_test
from wapii_core.report.formats import render_json
from wapii_core.store.record import RunRecord, Summary
from wapii_core.report.tables import build_report, describe_paired, load_runs, markdown_report, render_markdown

Z = 1.959963984540054 + 0.8416212335729143  # z(0.975) + z(0.80)


def test_pass_hat_k_is_the_chance_that_all_k_draws_pass():
    # 5 draws, 3 correct: all of 2 picked without replacement correct = C(3,2)/C(5,2) = 3/10.
    assert pass_hat_k(5, 3, 2) == pytest.approx(3 / 10)
    assert pass_hat_k(10, 7, 5) == pytest.approx(21 / 252)  # C(7,5)/C(10,5)
    assert pass_hat_k(5, 3, 4) == 0.0 and pass_hat_k(5, 5, 5) == 1.0 and pass_hat_k(5, 3, 1) == pytest.approx(0.6)
    assert pass_hat_k(5, 3, 2) <= pass_at_k(5, 3, 2)
    with pytest.raises(ValueError):
        pass_hat_k(3, 4, 1)
    # Three tasks of 5 draws with 3, 5 and 0 correct: pass^1 = (3/5 + 1 + 0)/3, pass^5 = (0 + 1 + 0)/3.
    out = estimate([(5, 3), (5, 5), (5, 0)])
    assert out["pass^1"] == pytest.approx(1.6 / 3) == out["pass@1"]
    assert out["pass^5"] == pytest.approx(1 / 3) and out["pass@5"] == pytest.approx(2 / 3)
    assert "pass^10" not in out


def test_the_flip_rate_is_the_chance_that_two_draws_disagree():
    # 5 draws, 3 correct: of the C(5,2) = 10 pairs of draws, 3 * 2 = 6 disagree.
    assert flip_rate(5, 3) == pytest.approx(0.6)
    assert flip_rate(2, 1) == 1.0 and flip_rate(4, 4) == 0.0 and flip_rate(4, 0) == 0.0
    with pytest.raises(ValueError):
        flip_rate(1, 1)
    out = estimate([(5, 3), (5, 5), (5, 0)])
    assert out["flip rate"] == pytest.approx(0.2) and out["unstable tasks"] == 1
    assert "flip rate" not in estimate([(1, 1), (1, 0)])  # undefined with one draw


def test_the_minimal_detectable_difference_of_one_run():
    assert detectable_factor() == pytest.approx(Z) and Z == pytest.approx(2.8016, abs=1e-4)
    # Per-task rates 0.6, 1, 0: mean 8/15, sample variance ((1/15)^2 + (7/15)^2 + (8/15)^2) / 2 = 0.25333.
    variance = ((1 / 15) ** 2 + (7 / 15) ** 2 + (8 / 15) ** 2) / 2
    assert variance == pytest.approx(0.253333, abs=1e-6)
    out = estimate([(5, 3), (5, 5), (5, 0)])
    assert out["minimal detectable difference"] == pytest.approx(Z * math.sqrt(2 * variance / 3))
    assert out["minimal detectable difference"] == pytest.approx(1.1513, abs=1e-4)
    # 395 tasks of one draw at about 45.6 %: the familiar ten points.
    tasks = [(1, 1)] * 180 + [(1, 0)] * 215
    assert estimate(tasks)["minimal detectable difference"] == pytest.approx(0.0994, abs=1e-3)
    assert estimate([(3, 1)])["minimal detectable difference"] is None


def test_the_minimal_detectable_difference_of_a_paired_test():
    # Per-task differences 1, 0, 0, -1, 1: mean 0.2, sample variance 2.8 / 4 = 0.7.
    assert paired_mdd([1, 0, 0, -1, 1]) == pytest.approx(Z * math.sqrt(0.7 / 5))
    assert minimal_detectable_difference(0.5, 100) == pytest.approx(Z * 0.05)
    assert paired_mdd([1.0]) is None
    # 100 tasks, 20 solved by A only, 10 by B only: differences of mean 0.1 and variance (30 - 100 * 0.01) / 99.
    a = draws_of(["correct"] * 60 + ["wrong"] * 40)
    b = draws_of(["correct"] * 40 + ["wrong"] * 50 + ["correct"] * 10)
    test = paired_test(a, b, resamples=200)
    assert test.mdd == pytest.approx(Z * math.sqrt(29 / 99) / 10) and test.mdd == pytest.approx(0.1516, abs=1e-4)
    assert test.detectable is False  # a gap of 10 points, 15.2 needed: it could be noise
    sentence = describe_paired(test.as_dict() | {"run_a": "A", "run_b": "B"})
    assert sentence.endswith("minimal detectable difference 15.2 points at this size (paired, 80 % power, "
                             "α = 0.05): the gap is below it: it could be noise")
    strong = paired_test(draws_of(["correct"] * 100), draws_of(["wrong"] * 70 + ["correct"] * 30), resamples=200)
    assert strong.detectable and "the gap reaches it" in describe_paired(strong.as_dict() | {"run_a": "A",
                                                                                             "run_b": "B"})


@pytest.mark.parametrize("a, b, says", [
    ("wrong", "wrong", "both runs are at 0 % on every one of these tasks: nothing varies"),
    ("correct", "correct", "both runs are at 100 % on every one of these tasks: nothing varies"),
    ("correct", "wrong", "every task differs the same way: nothing varies"),
])
def test_the_mdd_sentence_makes_no_power_claim_where_nothing_varies(a, b, says):
    test = paired_test(draws_of([a] * 20), draws_of([b] * 20), resamples=200)
    assert test.mdd == 0
    sentence = describe_paired(test.as_dict() | {"run_a": "A", "run_b": "B"})
    assert says in sentence and "reaches it" not in sentence and "minimal detectable difference 0.0" not in sentence


def test_every_paired_test_of_a_report_carries_its_mdd(tmp_path):
    a = write_run(tmp_path / "a", draws_of(["correct"] * 60 + ["wrong"] * 40), model="A")
    b = write_run(tmp_path / "b", draws_of(["correct"] * 40 + ["wrong"] * 50 + ["correct"] * 10), model="B")
    report = build_report(load_runs([a, b]), resamples=200)
    assert report.paired[0]["mdd"] == pytest.approx(0.1516, abs=1e-4)
    assert json.loads(render_json(report))["paired_tests"][0]["mdd"] == pytest.approx(0.1516, abs=1e-4)
    assert "minimal detectable difference 15.2 points at this size" in render_markdown(report)


@pytest.mark.slow  # two wapii processes
def test_wapii_report_prints_the_mdd_beside_the_paired_test(tmp_path):
    a = write_run(tmp_path / "a", draws_of(["correct"] * 60 + ["wrong"] * 40), model="A")
    b = write_run(tmp_path / "b", draws_of(["correct"] * 40 + ["wrong"] * 50 + ["correct"] * 10), model="B")
    done = run_cli("report", str(a), str(b), "--format", "md", "--resamples", "200")
    assert done.returncode == 0, done.stderr
    assert "minimal detectable difference 15.2 points at this size" in done.stdout
    terminal = run_cli("report", str(a), str(b), "--resamples", "200", "--full")
    assert "minimal detectable difference 15.2 points" in terminal.stdout.replace("\n", " ")


def test_report_md_shows_them_beside_pass_at_k():
    results = draws_of(["correct", "wrong", "correct", "correct"]) + draws_of(["correct"] * 4, draw=1)
    summary = {"complete": True, "samples": 8, "judged": 8, "failed_generations": [], **PaperMetrics().aggregate(
        results, None), "metrics": {"pass_at_k": PassAtK().aggregate(results)},
               "metric_kinds": {"wapii": {}, "pass_at_k": record(PassAtK.values)}}
    info = {"dataset": "hand", "adapter": "axios_js", "backend": "replay", "setup": "full", "setting": "unconstrained"}
    text = markdown_report([("run", RunRecord.model_validate(info), Summary.model_validate(summary))])
    # Tasks of (n, c) = (2, 2), (2, 1), (2, 2), (2, 2): pass^1 = 7/8, flip rate 1/4, one unstable task.
    lines = text.splitlines()
    where = [i for i, line in enumerate(lines) if line.startswith(("| pass@1 |", "| pass^1 |", "| flip rate |",
                                                                   "| unstable tasks |"))]
    assert [lines[i] for i in where][:4] == ["| pass@1 | 87.5 % |", "| pass^1 | 87.5 % |", "| flip rate | 25.0 % |",
                                              "| unstable tasks | 1 |"]
    assert where[:4] == list(range(where[0], where[0] + 4))  # one table, side by side
    assert "| minimal detectable difference |" in text


def test_the_provider_declares_every_value_it_gives():
    out = PassAtK().aggregate(draws_of(["correct", "wrong", "correct"]) + draws_of(["correct", "wrong", "wrong"],
                                                                                 draw=1))
    declared = set(PassAtK.values)
    assert {k for k in out if k != "per_api"} <= declared
    assert out["flip rate"] == pytest.approx((0 + 0 + 1) / 3) and out["unstable tasks"] == 1
    assert out["pass^1"] == out["pass@1"] == pytest.approx(0.5)
    assert out["per_api"]["x"]["flip rate"] == out["flip rate"]


@pytest.mark.slow  # a wapii process
def test_a_run_with_draws_writes_them_to_summary_and_report(tmp_path):
    out = tmp_path / "run"
    done = run_cli("run", "--dataset", "demo", "--limit", "4", "--draws", "2", "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    values = json.loads((out / "summary.json").read_text())["metrics"]["pass_at_k"]
    assert values["pass@1"] == values["pass^1"] == 1.0 and values["flip rate"] == 0.0
    assert values["unstable tasks"] == 0 and values["minimal detectable difference"] == 0.0
    report = (out / "report.md").read_text()
    for row in ("| pass^1 | 100.0 % |", "| flip rate | 0.0 % |", "| minimal detectable difference | 0.0 % |"):
        assert row in report
