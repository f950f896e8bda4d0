"""End-to-end conformance with the published WAPIIBench pipeline.

For every ``<name>.reference.json`` in ``../shared/conformance``, the programs in ``<name>/<api>/
<index:04d>_code.js`` are re-scored the way a user would (``wapii run --backend replay --generations
<name>``, the conformance kit's replay check: the ``axios_js`` adapter extracts, executes and
normalises, the core judges in reference mode and aggregates); every per-sample verdict in ``results.jsonl``, every statistic and every row
of ``summary.json`` must equal what the reference pipeline produced for the same files (floating-point
values to 1e-9). A program ending in ``timeout`` / ``unsatisfiable_constraints`` is the reference's
marker for a constrained generation that stopped on its time limit / on unsatisfiable constraints.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from support import CONFORMANCE, WAPIIBENCH
from wapii_core.judge.metrics import ROW_NAMES
from wapii_core.base.model import SampleResult
from wapii_core.judge.refstats import reference_statistics
from wapii_core.run.conformance import CheckOutcome, ReplayCorpus, replay_check

CORPORA = sorted(CONFORMANCE.glob("*.reference.json"))
TOLERANCE = 1e-9

# metrics.md §8: paper row -> reference statistic (stat name, key in a per-field dict or None)
_PAIRS = {
    "Correct implementations": "samples_correct_wrt_", "Illegal implementations": "samples_illegal_wrt_",
    "Correct URLs": "urls_correct_wrt_", "Illegal URLs": "urls_illegal_wrt_",
    "Correct methods": "methods_correct_wrt_", "Illegal methods": "methods_illegal_wrt_",
}
_ARGUMENT_PAIRS = {
    "Correct argument names": "arguments_correct_name_wrt_expected_",
    "Correct argument values": "arguments_correct_value_wrt_expected_",
    "Missing arguments": "arguments_missing_wrt_expected_",
    "Unexpected arguments": "arguments_unexpected_wrt_all_",
    "Unnecessary arguments": "arguments_unnecessary_wrt_all_",
    "Illegal arguments": "arguments_illegal_wrt_all_",
    "Mean argument precision": "argument_name_mean_precision_wrt_",
    "Mean argument recall": "argument_name_mean_recall_wrt_",
    "Mean argument Jaccard index": "argument_name_mean_jaccard_wrt_",
    "Mean argument value conditional accuracy": "argument_value_mean_accuracy_wrt_correct_",
}

pytestmark = pytest.mark.skipif(not CORPORA or not (WAPIIBENCH / "dataset.json").exists(),
                                reason="needs ../shared/conformance and ../shared/wapiibench")


@dataclass
class Corpus:
    name: str
    directory: Path
    reference: dict[str, Any]
    results: dict[str, SampleResult]  # sample id -> result
    summary: dict[str, Any]  # the run's summary.json
    outcome: CheckOutcome  # the kit's per-sample comparison


def _judge_corpus(name: str, directory: Path, reference: dict[str, Any],
                  out: Path) -> tuple[CheckOutcome, dict[str, SampleResult], dict[str, Any]]:
    """Re-score the corpus exactly as a user would (``wapii run --backend replay``, the conformance kit's
    replay check): its per-sample outcome, the results by sample id and the run's summary."""
    corpus = ReplayCorpus(name, directory, reference["samples"], dataset="wapiibench", data_dir=WAPIIBENCH)
    outcome, results = replay_check("axios_js", corpus, out)
    return outcome, {r.sample: r for r in results}, json.loads((out / "summary.json").read_text())


@pytest.fixture(scope="module", params=CORPORA, ids=[p.name.removesuffix(".reference.json") for p in CORPORA])
def corpus(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    path: Path = request.param
    name = path.name.removesuffix(".reference.json")
    reference = json.loads(path.read_text())
    directory = path.parent / name
    outcome, results, summary = _judge_corpus(name, directory, reference, tmp_path_factory.mktemp(name) / "run")
    return Corpus(name, directory, reference, results, summary, outcome)


def _close(ours: Any, theirs: Any) -> bool:
    if isinstance(theirs, (int, float)) and isinstance(ours, (int, float)):
        return math.isclose(ours, theirs, rel_tol=0.0, abs_tol=TOLERANCE)
    return ours == theirs


def _vacant(value: Any) -> bool:
    return value is None or value == 0 or value == {}


def statistic_differences(ours: dict[str, Any], theirs: dict[str, Any], scope: str) -> list[str]:
    """Every key the reference has must agree; keys only we have must be 0 / None / empty."""
    diffs = []
    for key in sorted({*ours, *theirs}):
        if key not in theirs:
            if not _vacant(ours[key]) and not (isinstance(ours[key], dict) and all(map(_vacant, ours[key].values()))):
                diffs.append(f"[{scope}] {key}: ours {ours[key]!r}, not in the reference")
            continue
        if key not in ours:
            diffs.append(f"[{scope}] {key}: missing (reference {theirs[key]!r})")
            continue
        want, got = theirs[key], ours[key]
        if isinstance(want, dict) and isinstance(got, dict):
            for sub in sorted({*want, *got}):
                if sub not in want:
                    if not _vacant(got[sub]):
                        diffs.append(f"[{scope}] {key}[{sub}]: ours {got[sub]!r}, not in the reference")
                elif sub not in got or not _close(got[sub], want[sub]):
                    diffs.append(f"[{scope}] {key}[{sub}]: ours {got.get(sub)!r}, reference {want[sub]!r}")
        elif not _close(got, want):
            diffs.append(f"[{scope}] {key}: ours {got!r}, reference {want!r}")
    return diffs


def _scopes(corpus: Corpus) -> dict[str, list[SampleResult]]:
    results = list(corpus.results.values())
    return {scope: results if scope == "all" else [r for r in results if r.api == scope]
            for scope in corpus.reference["statistics"]}


@pytest.mark.slow
def test_corpus_layout_matches_its_reference(corpus: Corpus) -> None:
    files = {f"{p.parent.name}/{int(p.name.split('_')[0])}" for p in corpus.directory.glob("*/*_code.js")}
    assert files == set(corpus.reference["samples"])
    assert "all" in corpus.reference["statistics"]


def test_every_sample_verdict_matches_the_reference(corpus: Corpus) -> None:
    outcome = corpus.outcome
    assert outcome.total == len(corpus.reference["samples"])
    assert outcome.failures == [], f"{outcome.total - outcome.passed} of {outcome.total} samples differ:\n" + \
        "\n".join(outcome.failures)


def test_every_statistic_matches_the_reference(corpus: Corpus) -> None:
    diffs = []
    for scope, results in _scopes(corpus).items():
        diffs += statistic_differences(reference_statistics(results), corpus.reference["statistics"][scope], scope)
    assert not diffs, f"{len(diffs)} statistics differ:\n" + "\n".join(diffs[:40])


def test_paper_rows_are_the_reference_statistics(corpus: Corpus) -> None:
    """The run's summary.json rows equal metrics.md §8 applied to the reference's own statistics."""
    for scope in corpus.reference["statistics"]:
        theirs = corpus.reference["statistics"][scope]
        rows = corpus.summary["overall"] if scope == "all" else corpus.summary["per_api"][scope]
        expected = {"Executable implementations (t)": theirs["samples_executable_wrt_total"]}
        for stem, prefix in _PAIRS.items():
            expected[f"{stem} (t)"] = theirs[prefix + "total"]
            expected[f"{stem} (e)"] = theirs[prefix + "executable"]
        for stem, prefix in _ARGUMENT_PAIRS.items():
            expected[f"{stem} (t)"] = theirs[prefix + "total"].get("all")
            expected[f"{stem} (e)"] = theirs[prefix + "executable"].get("all")
            for field, values in rows["per_field"].items():
                assert _close(values[f"{stem} (t)"], theirs[prefix + "total"].get(field)), (scope, stem, field)
                assert _close(values[f"{stem} (e)"], theirs[prefix + "executable"].get(field)), (scope, stem, field)
        expected["Total errors"] = theirs["errors_total"]
        expected["Incomplete implementations"] = sum(
            theirs[f"errors_{k}"] for k in ("no_request", "incomplete_request", "timeout", "unsatisfiable"))
        expected["Runtime errors"] = theirs["errors_runtime_error"]
        assert set(expected) == set(ROW_NAMES)
        bad = {name: (rows[name], expected[name]) for name in ROW_NAMES if not _close(rows[name], expected[name])}
        assert not bad, f"[{scope}] rows differ (ours, reference): {bad}"
