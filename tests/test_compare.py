"""Per-sample judging (metrics.md §4-6) on the real WAPIIBench specs."""

from __future__ import annotations

import copy
import json

import pytest

from support import WAPIIBENCH, needs_shared
from wapii_core.judge.compare import judge, sample_counts
from wapii_core.base.model import Sample, SampleResult
from wapii_core.openapi.index import SpecIndex

pytestmark = needs_shared("wapiibench", "dataset.json")

ASANA = "https://app.asana.com/api/1.0"
ACCEPT = "application/json, text/plain, */*"
AUTH = "Bearer <token>"


def spec(api: str) -> SpecIndex:
    return SpecIndex.load(WAPIIBENCH / "specs" / f"{api}.yaml")


def sample(config: dict, api: str = "asana", index: int = 0) -> Sample:
    return Sample(api=api, index=index, task="a task", config=config)


ATTACHMENT = sample({"url": f"{ASANA}/attachments/12345", "method": "get",
                     "headers": {"Accept": ACCEPT, "Authorization": AUTH}})
TASK = sample({"url": f"{ASANA}/tasks/42", "method": "get", "headers": {"Accept": ACCEPT, "Authorization": AUTH},
               "params": {"opt_pretty": True}})


def request(base: Sample, **changes) -> dict:
    out = copy.deepcopy(base.config)
    out.update(changes)
    return out


def test_every_expected_config_judged_against_itself_is_correct() -> None:
    samples = [Sample(**s) for s in json.loads((WAPIIBENCH / "dataset.json").read_text())]
    specs = {api: spec(api) for api in {s.api for s in samples}}
    assert len(samples) == 395
    for strict in (False, True):
        for s in samples:
            before = copy.deepcopy(s.config)
            captured = copy.deepcopy(s.config)
            result = judge(s, specs[s.api], captured, strict=strict)
            assert s.config == before and captured == before, "judge must not modify its inputs"
            assert result.verdict == "correct", (s.id, s.checks, result.arguments)
            assert (result.url, result.method, result.endpoint) == ("correct",) * 3
            assert all(v == "correct" for field in result.arguments.values() for v in field.values())


def test_special_headers_get_a_verdict_but_never_count() -> None:
    headers = {"Accept": "text/html", "Authorization": AUTH, "Content-Type": "application/json"}
    result = judge(ATTACHMENT, spec("asana"), request(ATTACHMENT, headers=headers))
    assert result.arguments["headers"] == {"Accept": "incorrect_value", "Authorization": "correct",
                                           "Content-Type": "illegal"}  # Content-Type is illegal for GET
    assert result.arguments["path_params"] == {"attachment_gid": "correct"}
    assert result.verdict == "correct"
    counts = sample_counts(result)
    assert counts.all == {"headers": 1, "path_params": 1, "all": 2}
    assert counts.illegal == {} and counts.correct_value == {"headers": 1, "path_params": 1, "all": 2}


def test_header_names_are_case_sensitive() -> None:
    result = judge(ATTACHMENT, spec("asana"), request(ATTACHMENT, headers={"Accept": ACCEPT, "authorization": AUTH}))
    assert result.arguments["headers"] == {"Accept": "correct", "Authorization": "missing", "authorization": "illegal"}
    assert result.verdict == "illegal"


def test_values_compare_with_python_equality() -> None:
    sheets = spec("google_sheet_v4")
    expected = sample({"url": "https://sheets.googleapis.com/v4/spreadsheets/abc", "method": "get",
                       "headers": {"Accept": ACCEPT, "Authorization": AUTH}, "params": {"includeGridData": True}},
                      api="google_sheet_v4")
    assert judge(expected, sheets, request(expected, params={"includeGridData": 1})).verdict == "correct"
    result = judge(expected, sheets, request(expected, params={"includeGridData": "true"}))
    assert result.arguments["params"] == {"includeGridData": "incorrect_value"}
    assert result.verdict == "wrong"


@pytest.mark.parametrize(
    ("url", "method", "verdicts", "verdict"),
    [
        (f"{ASANA}/attachments/999", "get", ("correct", "correct", "correct"), "wrong"),  # other path_param value
        (f"{ASANA}/tasks/12345", "get", ("wrong", "correct", "wrong"), "illegal"),  # attachment_gid is illegal here
        (f"{ASANA}/attachments/12345", "delete", ("correct", "wrong", "wrong"), "wrong"),
        (f"{ASANA}/attachments/12345", "put", ("correct", "illegal", "illegal"), "illegal"),
        (f"{ASANA}/attachment/12345", "get", ("illegal", "correct", "illegal"), "illegal"),  # method still correct
        (f"{ASANA}/attachment/12345", "delete", ("illegal", "illegal", "illegal"), "illegal"),
    ],
)
def test_url_method_and_endpoint_verdicts(url: str, method: str, verdicts: tuple, verdict: str) -> None:
    result = judge(ATTACHMENT, spec("asana"), request(ATTACHMENT, url=url, method=method))
    assert (result.url, result.method, result.endpoint) == verdicts
    assert result.verdict == verdict


def test_path_params_of_another_template_are_judged_by_name() -> None:
    result = judge(ATTACHMENT, spec("asana"), request(ATTACHMENT, url=f"{ASANA}/tasks/12345"))
    assert result.arguments["path_params"] == {"attachment_gid": "missing", "task_gid": "illegal"}
    counts = sample_counts(result)
    assert counts.missing == {"path_params": 1, "all": 1}
    assert counts.illegal == {"path_params": 1, "all": 1}
    assert counts.recall == {"headers": 1.0, "path_params": 0.0, "all": 0.5}
    assert counts.precision == {"headers": 1.0, "path_params": 0.0, "all": 0.5}


def test_unexpected_arguments_are_judged_against_the_expected_endpoint() -> None:
    generated = request(TASK, method="put", data={"data": {"name": "x"}}, params={"opt_pretty": True, "opt_fields": "a"},
                        headers={"Accept": ACCEPT, "Authorization": AUTH, "Content-Type": "application/json"})
    result = judge(TASK, spec("asana"), generated)
    assert result.arguments["data"] == {"data": "illegal"}  # legal for PUT, but GET was expected
    assert result.arguments["params"] == {"opt_pretty": "correct", "opt_fields": "unnecessary"}
    assert result.arguments["headers"]["Content-Type"] == "illegal"
    assert (result.method, result.verdict) == ("wrong", "illegal")
    counts = sample_counts(result)
    assert counts.unnecessary == {"params": 1, "all": 1}
    assert counts.illegal == {"data": 1, "all": 1}
    assert counts.jaccard == {"headers": 1.0, "params": 0.5, "path_params": 1.0, "data": 0.0, "all": 0.6}


def test_null_and_non_object_fields_hold_no_arguments() -> None:
    result = judge(TASK, spec("asana"), request(TASK, params=None, data=None))
    assert result.arguments["params"] == {"opt_pretty": "missing"}
    assert "data" not in result.arguments
    odd = judge(TASK, spec("asana"), request(TASK, data="a=b"))
    assert odd.arguments["data"] == {}
    assert odd.verdict == "correct"


def test_empty_fields_present_in_either_config_are_listed() -> None:
    result = judge(ATTACHMENT, spec("asana"), request(ATTACHMENT, data={}, params={}))
    assert result.arguments["data"] == {} and result.arguments["params"] == {}
    assert result.verdict == "correct"


def test_nonexecutable_samples_keep_their_expected_counts() -> None:
    only_special = sample({"url": f"{ASANA}/attachments/1", "method": "get", "headers": {"Accept": ACCEPT},
                           "params": {"opt_pretty": True, "opt_fields": "a"}})
    result = judge(only_special, spec("asana"), None, "runtime_error", call="axios.get(", error_detail="boom")
    assert result.verdict == "nonexecutable" and result.error == "runtime_error"
    assert (result.url, result.method, result.endpoint) == (None, None, None)
    assert result.arguments == {}
    assert result.expected_arguments == {"headers": 0, "params": 2, "path_params": 1}
    assert (result.call, result.error_detail) == ("axios.get(", "boom")
    counts = sample_counts(result)
    assert counts.expected == counts.all == counts.missing == {"headers": 0, "params": 2, "path_params": 1, "all": 3}
    assert counts.correct_name == {} and counts.recall == {} and counts.precision == {}


def test_error_kinds() -> None:
    assert judge(ATTACHMENT, spec("asana"), None).error == "no_request"
    with pytest.raises(ValueError, match="unknown error kind"):
        judge(ATTACHMENT, spec("asana"), None, "exploded")


def test_strict_mode_matches_literal_characters() -> None:
    slack = spec("slack")
    expected = sample({"url": "https://slack.com/api/chat.postMessage", "method": "post",
                       "headers": {"Accept": ACCEPT, "Authorization": AUTH, "Content-Type": "application/json"},
                       "data": {"channel": "C1", "text": "hi"}}, api="slack")
    typo = request(expected, url="https://slack.com/api/chat_postMessage")
    reference = judge(expected, slack, typo)
    assert (reference.url, reference.verdict, reference.mode) == ("correct", "correct", "reference")
    strict = judge(expected, slack, typo, strict=True, draw=3)
    assert (strict.url, strict.method, strict.verdict, strict.mode, strict.draw) == (
        "illegal", "correct", "illegal", "strict", 3)


def test_sample_counts_is_pure_on_a_constructed_result() -> None:
    result = SampleResult(sample="x/0", api="x", verdict="wrong", url="correct", method="correct", endpoint="correct",
                          arguments={"headers": {"Accept": "correct", "Content-Type": "illegal", "A": "correct"},
                                     "params": {"p": "incorrect_value", "q": "missing", "r": "unnecessary"},
                                     "data": {}})
    frozen = result.model_dump()
    counts = sample_counts(result)
    assert result.model_dump() == frozen
    assert counts.all == {"headers": 1, "params": 3, "all": 4}
    assert counts.expected == {"headers": 1, "params": 2, "all": 3}
    assert counts.correct_name == {"headers": 1, "params": 1, "all": 2}
    assert counts.correct_value == {"headers": 1, "all": 1}
    assert counts.retrieved == {"headers": 1, "params": 2, "all": 3}
    assert counts.precision == {"headers": 1.0, "params": 0.5, "all": 2 / 3}
    assert counts.value_accuracy_wrt_expected == {"headers": 1.0, "params": 0.0, "all": 1 / 3}
    assert counts.value_accuracy_wrt_correct_name == {"headers": 1.0, "params": 0.0, "all": 0.5}
    with pytest.raises(ValueError, match="unknown argument verdict"):
        sample_counts(result.model_copy(update={"arguments": {"params": {"p": "great"}}}))
