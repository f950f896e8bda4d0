"""The run record: each sample's whole story stored (prompt, expected request, reasons, resolved endpoint,
call span, timings), read back only through the typed models, versioned, and told by ``wapii show``."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from rich.console import Console

from support import CONFORMANCE, WAPIIBENCH, run_cli
from wapii_core.base.errors import WapiiError
from wapii_core.base.model import Setup
from wapii_core.report.sample_story import SampleStory, print_story
from wapii_core.run.runner import RunConfig, load_dataset, run
from wapii_core.store.record import (RECORD_VERSION, load_run, load_summary, read_generations, read_results,
                                     sample_lines)

DEMO = load_dataset("demo", None)


def oracle_program(sample) -> str:
    from wapii_core.base import plugins

    return plugins.adapters.get("axios_js")().render(sample.config, Setup.full, sample)


def replay(tmp_path: Path, programs: dict[str, str]) -> Path:
    """A replay run of the demo's first tasks (axios_js, full completion) with these programs."""
    path = tmp_path / "programs.jsonl"
    path.write_text("".join(json.dumps({"sample": s, "code": c}) + "\n" for s, c in programs.items()))
    out = tmp_path / "run"
    run(RunConfig(dataset="demo", backend="replay", generations=path, limit=len(programs)), out)
    return out


FIRST, SECOND, THIRD, FOURTH, FIFTH = DEMO.samples[:5]


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One replay of the demo's first five tasks: a wrong and an illegal value, a method the path does not
    have, a correct program, one without a call and a method of another operation on the same path (shared
    by the tests that only read it)."""
    return replay(tmp_path_factory.mktemp("replayed"), {
        FIRST.id: oracle_program(FIRST).replace("limit: 10", "limit: '10', debug: true"),
        SECOND.id: oracle_program(SECOND).replace("axios.get(", "axios.delete("),
        THIRD.id: oracle_program(THIRD),
        FOURTH.id: "// nothing to see\nconst axios = require('axios');\n",
        FIFTH.id: oracle_program(FIFTH).replace("axios.patch(", "axios.get("),
    })


def assert_story_complete(out: Path, samples: dict) -> None:
    """Every generation line holds its prompt, every result line its expected request, a reason for
    each verdict that is not correct, its resolved endpoint and the call's place in the program."""
    generations = {g.key: g for g in read_generations(out)}
    results = read_results(out)
    assert results and len(generations) == len(results)
    for result in results:
        gen = generations[result.key]
        assert isinstance(gen.prompt, str) and gen.prompt.strip(), result.key
        assert gen.timings is not None and result.timings is not None
        assert result.expected_request == samples[result.sample].config, result.key
        if result.verdict == "nonexecutable":
            assert result.error and result.reasons == {}
            continue
        wrong = [f"{field}.{name}" for field, names in result.arguments.items() for name, verdict in names.items()
                 if verdict != "correct" and not (field == "headers" and name == "Accept")]
        wrong += [part for part in ("url", "method", "endpoint") if getattr(result, part) != "correct"]
        assert set(wrong) <= set(result.reasons), (result.key, wrong, result.reasons)
        assert all(result.reasons[path].strip() and "\n" not in result.reasons[path] for path in wrong)
        if result.url != "illegal":
            assert result.resolved_endpoint and result.resolved_endpoint.split(" ")[0] == \
                str(result.request["method"]).upper()
        start, end = result.call_span
        assert 0 <= start < end <= len(gen.code) and gen.code[start:end].strip() in result.call


@pytest.mark.slow
def test_an_oracle_run_records_the_prompt_and_the_expected_request_of_every_sample(tmp_path: Path) -> None:
    out = tmp_path / "oracle"
    run(RunConfig(dataset="demo", backend="oracle"), out)
    samples = {s.id: s for s in DEMO.samples}
    assert_story_complete(out, samples)
    for gen in read_generations(out):
        assert samples[gen.sample].task in gen.prompt and gen.prompt.rstrip().endswith("axios.")
    results = read_results(out)
    assert all(r.verdict == "correct" and r.reasons == {} for r in results)
    assert all(0 < r.timings.execution_s < 60 for r in results)  # measured per call by the sandbox's supervisor
    assert {r.resolved_endpoint for r in results if r.sample == "larchwood/0"} == {"GET /books"}
    assert load_run(out).record_version == RECORD_VERSION == load_summary(out).record_version


def test_each_wrong_verdict_is_explained_in_the_result_line(replayed: Path) -> None:
    assert_story_complete(replayed, {s.id: s for s in DEMO.samples})
    results = {r.sample: r for r in read_results(replayed)}
    assert results[FIRST.id].reasons == {
        "params.limit": "params.limit: sent '10', expected 10",
        "params.debug": "params.debug illegal: sent true, not an argument of the expected endpoint",
    }
    assert results[SECOND.id].reasons["method"].startswith("method ") and \
        "sent 'delete', expected 'get'" in results[SECOND.id].reasons["method"]
    assert results[SECOND.id].endpoint == "illegal" and results[SECOND.id].reasons["endpoint"] == \
        "endpoint illegal: the spec has no DELETE operation on /books, expected GET /books"
    assert results[FIFTH.id].endpoint == "wrong" and results[FIFTH.id].reasons["endpoint"] == \
        "endpoint wrong: resolved to GET /books/{bookId}, expected PATCH /books/{bookId}"
    assert "endpoint" not in results[FIRST.id].reasons  # its URL and method are right
    assert results[THIRD.id].verdict == "correct" and results[THIRD.id].reasons == {}
    assert results[FOURTH.id].verdict == "nonexecutable" and results[FOURTH.id].error == "no_request"
    assert results[FOURTH.id].call_span is None and results[FOURTH.id].expected_request == FOURTH.config


def test_show_prints_task_prompt_program_diff_and_reasons(replayed: Path) -> None:
    done = run_cli("show", str(replayed), FIRST.id)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert FIRST.task in text and "verdict: illegal" in text and "resolved to GET /books" in text
    assert "lines folded (--prompt shows the whole prompt)" in text
    marked = [line for line in text.splitlines() if line.startswith("> ")]
    assert len(marked) == 1 and "axios.get(" in marked[0]
    assert '-    "limit": 10' in text and '+    "limit": "10"' in text  # expected vs captured, as a diff (keys sorted)
    assert '+    "debug": true' in text
    lines = [line.split() for line in text.splitlines()]
    assert ["params.limit", "incorrect_value", "sent", "'10',", "expected", "10"] in lines
    assert ["params.debug", "illegal", "sent", "true,", "not", "an", "argument", "of", "the", "expected",
            "endpoint"] in lines
    generation, result = sample_lines(replayed, FIRST.id)
    story = SampleStory(str(replayed), load_run(replayed), FIRST.id, 0, FIRST.task, generation, result)
    console = Console(file=io.StringIO(), width=200)
    print_story(story, whole_prompt=True, console=console)  # --prompt
    whole = console.file.getvalue()
    assert "folded" not in whole and all(line in whole for line in generation.prompt.splitlines())


def test_show_refuses_a_bad_directory_an_unknown_sample_or_draw_in_one_line(replayed: Path, tmp_path: Path) -> None:
    for directory, sample, draw, message in [(tmp_path / "nowhere", FIRST.id, 0, "no such run directory"),
                                             (tmp_path, FIRST.id, 0, "not a run directory (no run.json)"),
                                             (replayed, "larchwod/0", 0, "no sample 'larchwod/0' (did you mean "
                                                                          "'larchwood/0'?)"),
                                             (replayed, FIRST.id, 3, "has no draw 3 (its draws: 0)")]:
        with pytest.raises(WapiiError) as refused:
            sample_lines(directory, sample, draw)
        assert message in str(refused.value) and "\n" not in str(refused.value)
    done = run_cli("show", str(replayed), "larchwod/0")
    assert done.returncode == 2 and not done.stdout
    assert done.stderr.strip().splitlines() == [f"error: {replayed}: no sample 'larchwod/0' (did you mean "
                                                "'larchwood/0'?) (samples are named <api>/<index>, e.g. "
                                                "'larchwood/0')"]


def test_a_record_written_before_versioning_is_read_and_a_newer_one_refused(replayed: Path, tmp_path: Path) -> None:
    sample = THIRD
    out = tmp_path / "old"
    shutil.copytree(replayed, out)
    old = {k: v for k, v in json.loads((out / "run.json").read_text()).items() if k != "record_version"}
    (out / "run.json").write_text(json.dumps(old))
    lines = [json.loads(line) for line in (out / "generations.jsonl").read_text().splitlines()]
    (out / "generations.jsonl").write_text("".join(json.dumps({k: line[k] for k in ("sample", "draw", "code")}) + "\n"
                                                   for line in lines))
    assert load_run(out).record_version == 1
    generation, result = sample_lines(out, sample.id)
    assert generation.prompt is None and result.verdict == "correct"
    console = Console(file=io.StringIO(), width=200)
    print_story(SampleStory(str(out), load_run(out), sample.id, 0, None, generation, result), console=console)
    assert "not recorded: the run was made before prompts were stored" in console.file.getvalue()
    (out / "summary.json").write_text(json.dumps({**json.loads((out / "summary.json").read_text()),
                                                  "record_version": RECORD_VERSION + 1}))
    with pytest.raises(WapiiError, match=r"summary\.json: record_version \d+ is newer than this wapii reads"):
        load_summary(out)
    done = run_cli("report", str(out))
    assert done.returncode == 2 and "is newer than this wapii reads" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_evaluate_rejudges_with_the_same_story(tmp_path: Path) -> None:
    sample = DEMO.samples[0]
    out = replay(tmp_path, {sample.id: oracle_program(sample).replace("limit: 10", "limit: 11")})
    before = read_results(out)
    done = run_cli("evaluate", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    after = read_results(out)
    strip = lambda rs: [r.model_dump(exclude={"timings"}) for r in rs]  # noqa: E731
    assert strip(after) == strip(before) and after[0].reasons == {"params.limit": "params.limit: sent 11, expected 10"}


@pytest.mark.slow
def test_a_replay_of_a_conformance_corpus_explains_every_verdict(tmp_path: Path) -> None:
    out = tmp_path / "corpus_a"
    done = run_cli("run", "--dataset", "wapiibench", "--data-dir", str(WAPIIBENCH), "--backend", "replay",
                   "--generations", str(CONFORMANCE / "corpus_a"), "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    samples = {s.id: s for s in load_dataset("wapiibench", WAPIIBENCH).samples}
    assert_story_complete(out, samples)
    results = read_results(out)
    assert sum(bool(r.reasons) for r in results) >= 100  # the corpus is mostly wrong on purpose
    assert max(len(line) for line in (out / "results.jsonl").read_text().splitlines()) < 64 << 10
    wrong = next(r for r in results if r.verdict == "wrong")
    shown = run_cli("show", str(out), wrong.sample)
    assert shown.returncode == 0 and all(reason.split(": ", 1)[-1] in shown.stdout for reason in wrong.reasons.values())


@pytest.mark.parametrize("tail", ["});\n", ");\n", "}\n);\n"])
def test_a_javascript_call_span_covers_the_whole_call_as_the_program_holds_it(tail: str) -> None:
    from wapii_core.generation.js_extract import extract_js_call

    code = "const axios = require('axios');\n\naxios.get('https://x.example/a', { params: { q: 1 } " + tail + "done();\n"
    ext = extract_js_call(code, "axios.")
    start, end = ext.span
    assert code[start:end] + "\n" == ext.call  # the closing marker is the call's own text
    then = "axios.get('https://x.example/a').then(r => r);\n"
    ext = extract_js_call(then, "axios.")
    assert then[slice(*ext.span)] == "axios.get('https://x.example/a')"
