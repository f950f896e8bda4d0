"""The ``wire`` comparison mode: what the request would carry, judged against the expected one."""

from __future__ import annotations

import copy

import pytest

from support import WAPIIBENCH, needs_shared
from wapii_core.judge.compare import judge
from wapii_core.base.model import Sample
from wapii_core.run.runner import load_dataset
from wapii_core.openapi.index import SpecIndex
from wapii_core.judge.wire import body_kind, canonical_json, judge_wire, js_number, wire_text, wire_view

DEMO = load_dataset("demo", None)
SPEC = SpecIndex.load(DEMO.specs["larchwood"])
BOOKS = DEMO.sample("larchwood/0")  # GET /books, params author, genre, available: true, limit: 10
RETURN = DEMO.sample("larchwood/15")  # POST /loans/{id}/return, form body {condition: worn}
NEW_BOOK = DEMO.sample("larchwood/2")  # POST /books, JSON body
PAGES = DEMO.sample("larchwood/4")  # PATCH /books/{id}, JSON body {pages: 412, subtitle}


def changed(sample: Sample, **fields) -> dict:
    config = copy.deepcopy(sample.config)
    config.update(fields)
    return config


@pytest.mark.parametrize("value, text", [
    (0, "0"), (50, "50"), (-3, "-3"), (1.0, "1"), (1.5, "1.5"), (1234567890.123456, "1234567890.123456"),
    (1e16, "10000000000000000"), (1e21, "1e+21"), (1.5e-7, "1.5e-7"), (0.000001, "0.000001"), (-2.5e30, "-2.5e+30"),
    (float("inf"), "Infinity"), (10**22, "1e+22"),
])
def test_numbers_are_written_as_javascript_prints_them(value, text) -> None:
    assert js_number(value) == text


def test_wire_text_and_canonical_json() -> None:
    assert [wire_text(v) for v in (True, False, None, "x", 2.0)] == ["true", "false", "", "x", "2"]
    assert canonical_json({"b": [1.0, True, None], "a": "é"}) == '{"a":"é","b":[1,true,null]}'
    assert canonical_json({"a": 1}) == canonical_json({"a": 1.0}) != canonical_json({"a": True})


def test_body_kind_follows_the_content_type_with_json_as_default() -> None:
    assert body_kind({"content-type": "multipart/form-data; boundary=x"}) == "multipart"
    assert body_kind({"Content-Type": "application/x-www-form-urlencoded"}) == "form"
    assert body_kind({"Content-Type": "application/json"}) == body_kind({}) == body_kind(None) == "json"


def test_the_expected_config_judged_against_itself_is_correct_in_wire_mode() -> None:
    for sample in DEMO.samples:
        result = judge_wire(sample, SPEC, copy.deepcopy(sample.config))
        assert result.verdict == "correct", (sample.id, result.arguments)
        assert result.mode == "wire"


def test_python_true_in_a_query_counts_in_wire_mode_but_not_typed_true() -> None:
    params = {**BOOKS.config["params"], "available": True}
    sent_python = {**{k: wire_text(v) for k, v in params.items()}, "available": "True"}
    python = judge_wire(BOOKS, SPEC, changed(BOOKS, params=params, sent_params=sent_python))
    assert python.arguments["params"]["available"] == "incorrect_value" and python.verdict == "wrong"
    sent_json = {k: wire_text(v) for k, v in params.items()}
    assert judge_wire(BOOKS, SPEC, changed(BOOKS, params=params, sent_params=sent_json)).verdict == "correct"
    # the reference mode compares the values as written: True equals true, whatever went on the wire
    assert judge(BOOKS, SPEC, changed(BOOKS, params=params, sent_params=sent_python)).verdict == "correct"


def test_a_number_sent_as_a_string_is_correct_on_the_wire_but_not_in_reference_mode() -> None:
    written_as_string = changed(BOOKS, params={**BOOKS.config["params"], "limit": "10"})
    assert judge_wire(BOOKS, SPEC, written_as_string).verdict == "correct"
    assert judge(BOOKS, SPEC, written_as_string).arguments["params"]["limit"] == "incorrect_value"


def test_a_one_for_true_is_correct_only_in_reference_mode() -> None:
    one = changed(BOOKS, params={**BOOKS.config["params"], "available": 1})
    assert judge(BOOKS, SPEC, one).verdict == "correct"  # the reference's quirk: 1 == True
    assert judge_wire(BOOKS, SPEC, one).arguments["params"]["available"] == "incorrect_value"
    float_ten = changed(BOOKS, params={**BOOKS.config["params"], "limit": 10.0})
    assert judge_wire(BOOKS, SPEC, float_ten).verdict == "correct"  # axios sends 10.0 as 10


def test_json_bodies_compare_by_json_value() -> None:
    data = copy.deepcopy(NEW_BOOK.config["data"])
    reordered = dict(reversed(list(data.items())))
    assert judge_wire(NEW_BOOK, SPEC, changed(NEW_BOOK, data=reordered)).verdict == "correct"
    as_text = changed(PAGES, data={**PAGES.config["data"], "pages": "412"})
    assert judge_wire(PAGES, SPEC, as_text).arguments["data"]["pages"] == "incorrect_value"
    as_float = changed(PAGES, data={**PAGES.config["data"], "pages": 412.0})
    assert judge_wire(PAGES, SPEC, as_float).verdict == "correct"
    as_bool = changed(PAGES, data={**PAGES.config["data"], "pages": True})
    assert judge(PAGES, SPEC, as_bool).arguments["data"]["pages"] == "incorrect_value"  # 412 != True either way


def test_a_form_body_where_json_is_expected_carries_no_value_correctly() -> None:
    headers = {**NEW_BOOK.config["headers"], "Content-Type": "application/x-www-form-urlencoded"}
    form = {k: wire_text(v) for k, v in NEW_BOOK.config["data"].items()}
    result = judge_wire(NEW_BOOK, SPEC, changed(NEW_BOOK, headers=headers, data=form))
    assert set(result.arguments["data"].values()) == {"incorrect_value"}
    assert result.verdict == "wrong"
    # the reference mode sees only the values: the string fields of the form look right
    reference = judge(NEW_BOOK, SPEC, changed(NEW_BOOK, headers=headers, data=form))
    assert "correct" in reference.arguments["data"].values()


def test_form_fields_compare_as_strings() -> None:
    assert judge_wire(RETURN, SPEC, copy.deepcopy(RETURN.config)).verdict == "correct"
    json_body = changed(RETURN, headers={**RETURN.config["headers"], "Content-Type": "application/json"})
    assert judge_wire(RETURN, SPEC, json_body).arguments["data"]["condition"] == "incorrect_value"


def test_header_names_match_regardless_of_case_on_the_wire() -> None:
    lower = changed(BOOKS, headers={"x-api-key": "<key>", "accept": "*/*"})
    assert judge_wire(BOOKS, SPEC, lower).verdict == "correct"
    reference = judge(BOOKS, SPEC, lower)
    assert reference.arguments["headers"]["X-Api-Key"] == "missing" and reference.verdict != "correct"


@needs_shared("wapiibench", "dataset.json")
def test_urls_match_the_spec_literally() -> None:
    slack = SpecIndex.load(WAPIIBENCH / "specs" / "slack.yaml")
    post = Sample(api="slack", index=0, task="t", config={
        "url": "https://slack.com/api/chat.postMessage", "method": "post",
        "headers": {"Authorization": "Bearer <token>", "Content-Type": "application/json"},
        "data": {"channel": "C1", "text": "hi"}})
    underscore = changed(post, url="https://slack.com/api/chat_postMessage")
    assert judge(post, slack, underscore).url == "correct"  # the reference's regex quirk
    assert judge_wire(post, slack, underscore).url == "illegal"
    assert judge_wire(post, slack, copy.deepcopy(post.config)).verdict == "correct"


def test_a_single_value_sent_for_a_list_parameter_is_a_list_of_one() -> None:
    expected = Sample(api="larchwood", index=99, task="t", config=changed(BOOKS, params={"genre": ["mystery"]}))
    sent = changed(BOOKS, params={"genre": "mystery"}, sent_params={"genre": "mystery"})
    assert judge_wire(expected, SPEC, sent).arguments["params"]["genre"] == "correct"
    many = changed(BOOKS, params={"genre": ["a", "b"]}, sent_params={"genre": ["a", "b"]})
    assert judge_wire(expected, SPEC, many).arguments["params"]["genre"] == "incorrect_value"


def test_the_stored_request_is_the_neutral_one_and_errors_pass_through() -> None:
    request = changed(BOOKS, sent_params={k: wire_text(v) for k, v in BOOKS.config["params"].items()})
    result = judge_wire(BOOKS, SPEC, request)
    assert result.request == request
    failed = judge_wire(BOOKS, SPEC, None, "runtime_error", error_detail="boom")
    assert (failed.verdict, failed.error, failed.mode) == ("nonexecutable", "runtime_error", "wire")
    assert failed.expected_arguments == judge(BOOKS, SPEC, None, "runtime_error").expected_arguments


def test_wire_view_does_not_modify_its_input() -> None:
    config = copy.deepcopy(NEW_BOOK.config)
    before = copy.deepcopy(config)
    view = wire_view(config)
    assert config == before and view is not config
