"""``wapii run --answers mock``: every program's requests answered by the mock of its sample's API
description (:func:`wapii_core.run.judge_stage.mock_responders`) instead of the empty ``200``, through the
real CLI in this process on the demo dataset and the axios_js adapter (axios rejects a ``4xx``
answer, so a program the mock answers ``404`` fails after its request: its verdict is still the
first request's).

The first-call benchmark's verdicts do not change (the first request is still what is judged); each
result records its exchanges, with the answer the mock gives that request (replayed here to a fresh
responder of the same seed); ``wapii show`` prints them; the option is part of the run's identity;
an adapter that cannot deliver answers is refused in one line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import REPO, CliResult
from support import run_cli_in_process as wapii

LIMIT = "5"  # larchwood/3 and /4 read a book the fresh store lacks: 404


def run_demo(out: Path, *args: str) -> CliResult:
    return wapii("run", "--adapter", "axios_js", "--limit", LIMIT, "--out", str(out), "--quiet", *args, cwd=REPO)


def results(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def one_line_error(done: CliResult) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in done.stderr, done.stderr
    return lines[0]


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """The same oracle run with the empty answer and with the mock's."""
    base = tmp_path_factory.mktemp("answers")
    made = {}
    for answers in ("empty", "mock"):
        done = run_demo(base / answers, "--answers", answers)
        assert done.returncode == 0, done.stderr
        made[answers] = base / answers
    return made


def test_the_mock_keeps_every_verdict_and_records_its_answer_to_each_request(runs) -> None:
    from wapii_core.mock.exchange import MockRequest
    from wapii_core.run.judge_stage import mock_responders
    from wapii_core.run.runner import load_dataset
    from wapii_core.base.model import Generation

    empty, mock = results(runs["empty"]), results(runs["mock"])
    assert len(mock) == int(LIMIT)
    assert [(r["sample"], r["verdict"], r["url"], r["method"], r["arguments"]) for r in mock] == \
        [(r["sample"], r["verdict"], r["url"], r["method"], r["arguments"]) for r in empty]
    assert all(r["exchanges"] is None for r in empty)
    assert json.loads((runs["mock"] / "run.json").read_text())["answers"] == "mock"
    assert json.loads((runs["empty"] / "run.json").read_text())["answers"] == "empty"

    responders = mock_responders(load_dataset("demo", None))
    statuses = set()
    for result in mock:
        (exchange,) = result["exchanges"]  # the oracle's program sends one request
        assert exchange["method"] == result["request"]["method"].upper()
        sent = exchange["request"]
        fresh = responders(Generation(sample=result["sample"], draw=result["draw"], code=""))
        again = fresh.answer(MockRequest(exchange["method"], exchange["url"], tuple(map(tuple, sent["headers"])),
                                         (sent["body"] or "").encode()))
        assert exchange["status"] == again.status and exchange["response"]["body"] == again.body.decode()
        assert exchange["note"]  # the mock says what it did (the empty answer has no note)
        statuses.add(exchange["status"])
    assert {200, 201, 404} <= statuses  # the mock's answers, not the empty 200


def test_show_prints_the_exchange_with_the_mocks_answer(runs) -> None:
    (first, *_) = results(runs["mock"])
    (exchange,) = first["exchanges"]
    done = wapii("show", str(runs["mock"]), first["sample"])
    assert done.returncode == 0, done.stderr
    assert "Exchanges (1: every request and its answer, in order)" in done.stdout
    assert f"answered: {exchange['status']}" in done.stdout and exchange["note"] in done.stdout


def test_a_resume_with_other_answers_is_refused(runs, tmp_path) -> None:
    line = one_line_error(run_demo(runs["empty"], "--answers", "mock"))
    assert line.endswith(f"{runs['empty']}: holds a run with --answers 'empty', not 'mock' (use another --out, "
                         "or --force to replace it)")
    assert "unknown --answers 'mokc' (did you mean 'mock'?" in one_line_error(run_demo(tmp_path / "x", "--answers", "mokc"))
    assert not (tmp_path / "x").exists()


def test_an_adapter_that_cannot_deliver_answers_is_refused(monkeypatch, tmp_path) -> None:
    from wapii_core.base import plugins
    from wapii_requests_py.adapter import PythonAdapter
    from wapii_requests_py.libraries import REQUESTS

    class Silent(PythonAdapter):  # requests_py, whose capabilities do not declare answers
        @property
        def capabilities(self):
            return super().capabilities.model_copy(update={"answers": False})

    entry = plugins.adapters.entry("requests_py")
    silent = lambda: Silent(REQUESTS)  # noqa: E731
    monkeypatch.setitem(plugins.adapters.entries(), "silent_py", type(entry)("silent_py", silent, entry.plugin))
    out = tmp_path / "silent"
    line = one_line_error(wapii("run", "--adapter", "silent_py", "--answers", "mock", "--limit", "1", "--out", str(out)))
    assert line == ("error: adapter 'silent_py' cannot deliver answers to its programs (--answers mock): its "
                    "capabilities do not declare 'answers'; run it with --answers empty")
    assert not (out / "results.jsonl").exists()


def test_the_default_run_name_says_the_mock_answered() -> None:
    from wapii_core.base.model import Setup
    from wapii_core.cli.run import default_run_dir

    assert default_run_dir("demo", "requests_py", "oracle", None, Setup.full).name == "demo-requests_py-oracle-full"
    assert default_run_dir("demo", "requests_py", "oracle", None, Setup.full, answers="mock").name == \
        "demo-requests_py-oracle-full-mockanswers"


def test_nothing_one_generation_creates_reaches_another() -> None:
    """Each sample and draw gets a fresh store: an identifier another draw was given is unknown (404),
    even read by a program of the same sample; the same generations get the same answers again."""
    from wapii_core.base import plugins
    from wapii_core.base.model import Generation, Setup
    from wapii_core.judge.generations import Judge
    from wapii_core.run.judge_stage import mock_responders
    from wapii_core.run.runner import load_dataset

    demo = load_dataset("demo", None)
    create = next(s for s in demo.samples if s.config["method"].lower() == "post" and s.config["url"].endswith("/books"))
    adapter = plugins.adapters.get("requests_py")()
    try:
        judge = Judge(adapter, demo, "wire", responders=mock_responders(demo, [create]))
        first = judge([Generation(sample=create.id, code=adapter.render(create.config, Setup.full, create, mode="wire"))])
        made = json.loads(first[0].exchanges[0].response.body)["id"]
        steal = (f"import requests\nrequests.get('{create.config['url']}/{made}', "
                 "headers={'Authorization': 'Bearer t', 'X-Api-Key': 'k'})\n")
        again = [Generation(sample=create.id, draw=1, code=steal), Generation(sample=create.id, draw=0, code=steal)]
        stolen = judge(again)
        repeat = judge(again)
    finally:
        adapter.close()
    assert first[0].exchanges[0].status == 201
    assert [r.exchanges[0].status for r in stolen] == [404, 404]
    assert [r.exchanges for r in repeat] == [r.exchanges for r in stolen]


@pytest.mark.slow  # a second worker start
def test_evaluate_answers_as_the_run_did(runs, tmp_path) -> None:
    """``wapii evaluate`` re-judges with the answers run.json records: the same verdicts and exchanges."""
    import shutil

    copy = tmp_path / "mock"
    shutil.copytree(runs["mock"], copy)
    (copy / "results.jsonl").unlink()
    done = wapii("evaluate", str(copy), "--quiet")
    assert done.returncode == 0, done.stderr
    again, before = results(copy), results(runs["mock"])
    assert [(r["verdict"], r["exchanges"]) for r in again] == [(r["verdict"], r["exchanges"]) for r in before]
    assert all(r["exchanges"] for r in again)
