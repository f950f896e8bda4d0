"""The run record: each sample's whole story stored (prompt, expected request, reasons, resolved endpoint,
call span, timings), read back only through the typed models, versioned, and told by ``wapii show``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import CONFORMANCE, WAPIIBENCH, run_cli
from wapii_core.base.errors import WapiiError
from wapii_core.base.model import Setup
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
        wrong += [part for part in ("url", "method") if getattr(result, part) != "correct"]
        assert set(wrong) <= set(result.reasons), (result.key, wrong, result.reasons)
        assert all(result.reasons[path].strip() and "\n" not in result.reasons[path] for path in wrong)
        if result.url != "illegal":
            assert result.resolved_endpoint and result.resolved_endpoint.split(" ")[0] == \
                str(result.request["method"]).upper()
        start, end = result.call_span
        assert 0 <= start < end <= len(gen.code) and gen.code[start:end].strip() in result.call


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


def test_each_wrong_verdict_is_explained_in_the_result_line(tmp_path: Path) -> None:
    first, second, third, fourth = DEMO.samples[:4]
    programs = {
        first.id: oracle_program(first).replace("limit: 10", "limit: '10', debug: true"),
        second.id: oracle_program(second).replace("axios.get(", "axios.delete("),
        third.id: oracle_program(third),
        fourth.id: "// nothing to see\nconst axios = require('axios');\n",
    }
    out = replay(tmp_path, programs)
    assert_story_complete(out, {s.id: s for s in DEMO.samples})
    results = {r.sample: r for r in read_results(out)}
    assert results[first.id].reasons == {
        "params.limit": "params.limit: sent '10', expected 10",
        "params.debug": "params.debug illegal: sent true, not an argument of the expected endpoint",
    }
    assert results[second.id].reasons["method"].startswith("method ") and \
        "sent 'delete', expected 'get'" in results[second.id].reasons["method"]
    assert results[third.id].verdict == "correct" and results[third.id].reasons == {}
    assert results[fourth.id].verdict == "nonexecutable" and results[fourth.id].error == "no_request"
    assert results[fourth.id].call_span is None and results[fourth.id].expected_request == fourth.config


def test_show_prints_task_prompt_program_diff_and_reasons(tmp_path: Path) -> None:
    sample = DEMO.samples[0]
    out = replay(tmp_path, {sample.id: oracle_program(sample).replace("limit: 10", "limit: '10'")})
    done = run_cli("show", str(out), sample.id)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert sample.task in text and "verdict: wrong" in text and "resolved to GET /books" in text
    assert "lines folded (--prompt shows the whole prompt)" in text
    marked = [line for line in text.splitlines() if line.startswith("> ")]
    assert len(marked) == 1 and "axios.get(" in marked[0]
    assert '-    "limit": 10' in text and '+    "limit": "10"' in text  # expected vs captured, as a diff
    assert any(line.split()[:2] == ["params.limit", "incorrect_value"] and line.endswith("sent '10', expected 10")
               for line in text.splitlines())
    whole = run_cli("show", str(out), sample.id, "--prompt").stdout
    prompt = read_generations(out)[0].prompt
    assert "folded" not in whole and all(line in whole for line in prompt.splitlines())


def test_show_refuses_a_bad_directory_an_unknown_sample_or_draw_in_one_line(tmp_path: Path) -> None:
    sample = DEMO.samples[0]
    out = replay(tmp_path, {sample.id: oracle_program(sample)})
    for args, message in [((str(tmp_path / "nowhere"), sample.id), "no such run directory"),
                          ((str(tmp_path), sample.id), "not a run directory (no run.json)"),
                          ((str(out), "larchwod/0"), "no sample 'larchwod/0' (did you mean 'larchwood/0'?)"),
                          ((str(out), sample.id, "--draw", "3"), "has no draw 3 (its draws: 0)")]:
        done = run_cli("show", *args)
        assert done.returncode == 2 and message in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and not done.stdout


def test_a_record_written_before_versioning_is_read_and_a_newer_one_refused(tmp_path: Path) -> None:
    sample = DEMO.samples[0]
    out = replay(tmp_path, {sample.id: oracle_program(sample)})
    old = {k: v for k, v in json.loads((out / "run.json").read_text()).items() if k != "record_version"}
    (out / "run.json").write_text(json.dumps(old))
    lines = [json.loads(line) for line in (out / "generations.jsonl").read_text().splitlines()]
    (out / "generations.jsonl").write_text("".join(json.dumps({k: line[k] for k in ("sample", "draw", "code")}) + "\n"
                                                   for line in lines))
    assert load_run(out).record_version == 1
    generation, result = sample_lines(out, sample.id)
    assert generation.prompt is None and result.verdict == "correct"
    done = run_cli("show", str(out), sample.id)
    assert done.returncode == 0 and "not recorded: the run was made before prompts were stored" in done.stdout
    (out / "summary.json").write_text(json.dumps({**json.loads((out / "summary.json").read_text()),
                                                  "record_version": RECORD_VERSION + 1}))
    with pytest.raises(WapiiError, match=r"summary\.json: record_version \d+ is newer than this wapii reads"):
        load_summary(out)
    done = run_cli("report", str(out))
    assert done.returncode == 2 and "is newer than this wapii reads" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


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
