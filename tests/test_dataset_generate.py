"""`wapii datasets generate` against the scripted OpenAI-compatible server."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fake_openai import OpenAIServer
from support import REPO, WAPIIBENCH, needs_shared
from wapii_core.datasets.generate import SYSTEM_MESSAGE, GenerateConfig, generate_dataset
from wapii_core.datasets.loader import load_dataset_dir
from wapii_core.openapi.spec_file import read_spec
from wapii_core.base.errors import WapiiError

pytest.importorskip("wapii_openai_models")  # the `openai` backend generates the samples
pytestmark = needs_shared("wapiibench", "prompts")

DEMO_SPEC = REPO / "specs" / "demo" / "specs" / "larchwood.yaml"
DEMO_SAMPLES = json.loads((REPO / "specs" / "demo" / "dataset.json").read_text())
BASE = "https://api.larchwood-library.example/v2"


def answer(samples: list[dict]) -> str:
    body = json.dumps({"samples": [{"task": s["task"], "config": s["config"]} for s in samples]}, indent=2)
    return f"Here is the test data:\n\n```json\n{body}\n```\n"


def config(out: Path, server, **extra) -> GenerateConfig:
    return GenerateConfig(spec=DEMO_SPEC, backend="openai", model="scripted-chat", out=out,
                          prompts_dir=WAPIIBENCH / "prompts", api="larchwood",
                          backend_options={"base_url": server.base_url, "retries": "0", "no_cache": "true"}, **extra)


def test_a_malformed_answer_is_asked_again_and_samples_are_checked_and_deduplicated(tmp_path):
    wrong_url = {"task": "List the magazines.", "config": {"url": f"{BASE}/magazines", "method": "GET",
                                                           "headers": {"Accept": "application/json, text/plain, */*"}}}
    replies = iter(["I am sorry, here is a start: {\"samples\": [",
                    answer(DEMO_SAMPLES[:5] + [DEMO_SAMPLES[0], wrong_url])])

    def responder(call):
        return next(replies)

    with OpenAIServer(responder) as server:
        report = generate_dataset(config(tmp_path / "out", server))
        calls = server.calls
    assert len(calls) == 2 and report.requests == 1 and report.attempts == 2
    messages = calls[0].body["messages"]
    assert messages[0] == {"role": "system", "content": SYSTEM_MESSAGE}
    user = messages[1]["content"]
    assert DEMO_SPEC.read_text() in user and "{spec}" not in user and "{path_selection}" not in user
    assert user.rstrip().endswith("Generate one sample for each existing combination of path and method.")
    assert (report.received, report.duplicates, report.flagged, report.written) == (7, 1, 1, 6)

    dataset = load_dataset_dir(tmp_path / "out", "generated")
    assert [s.index for s in dataset.samples] == list(range(6))
    assert [s.task for s in dataset.samples[:5]] == [s["task"] for s in DEMO_SAMPLES[:5]]
    flagged = dataset.samples[5]
    assert flagged.config["method"] == "get" and "could not be matched" in flagged.checks
    assert all(s.checks == "OK" for s in dataset.samples[:5]) and all(s.vetted is False for s in dataset.samples)
    assert dataset.display_names == {"larchwood": "Larchwood Library API"}
    assert sorted(p.name for p in dataset.prompts_dir.iterdir()) == sorted(
        p.name for p in (WAPIIBENCH / "prompts").iterdir())
    log = tmp_path / "out" / "generation"
    assert (log / "request-0.out").read_text().startswith("I am sorry") and (log / "request-0.out.1").exists()


def test_answers_that_stay_malformed_are_reported_and_nothing_is_written(tmp_path):
    with OpenAIServer(lambda call: "no JSON here") as server:
        with pytest.raises(WapiiError, match=r"no usable sample \(request 0: 2 attempt\(s\) failed: not JSON"):
            generate_dataset(config(tmp_path / "out", server, retries=1))
        assert server.answered == 2
    assert not (tmp_path / "out").exists() and list(tmp_path.iterdir()) == []


def test_drop_failing_leaves_out_what_the_check_flags(tmp_path):
    bad = {**DEMO_SAMPLES[0], "task": "Bad enum.", "config": {**DEMO_SAMPLES[0]["config"],
                                                               "params": {"genre": "cookbooks"}}}
    with OpenAIServer(lambda call: answer(DEMO_SAMPLES[:3] + [bad])) as server:
        report = generate_dataset(config(tmp_path / "out", server, drop_failing=True))
    assert (report.flagged, report.dropped_failing, report.written) == (1, 1, 3)


def test_a_large_spec_is_asked_for_in_endpoint_subsets(tmp_path):
    spec = WAPIIBENCH / "specs" / "slack.yaml"
    sample = {"task": "Post 'hi' to channel C1.", "config": {
        "url": "https://slack.com/api/chat.postMessage", "method": "post",
        "headers": {"Accept": "application/json, text/plain, */*", "Authorization": "Bearer <token>",
                    "Content-Type": "application/json"}, "data": {"channel": "C1", "text": "hi"}}}
    with OpenAIServer(lambda call: json.dumps({"samples": [sample]})) as server:
        report = generate_dataset(GenerateConfig(
            spec=spec, backend="openai", model="scripted-chat", out=tmp_path / "slack", prompts_dir=WAPIIBENCH / "prompts",
            backend_options={"base_url": server.base_url, "no_cache": "true"}))
        users = [call.body["messages"][1]["content"] for call in server.calls]
    paths = read_spec(spec)["paths"]
    chunks = [re.search(r"following paths:\n(.*)\Z", u, re.DOTALL).group(1).strip().splitlines() for u in users]
    assert len(chunks) > 1 and report.requests == len(chunks)
    listed = [p for chunk in chunks for p in chunk]
    assert sorted(listed) == sorted(paths) and len(listed) == len(set(listed))
    operations = [sum(1 for m in paths[p] if m in ("get", "post", "put", "patch", "delete")) for p in listed]
    assert max(operations) <= 30
    assert all((WAPIIBENCH / "prompts" / "slack_instructions.md").read_text().strip() in u for u in users)
    assert report.duplicates == len(chunks) - 1 and report.written == 1


def test_the_generated_demo_dataset_scores_100_percent_with_the_oracle(tmp_path):
    from wapii_core.run import runner

    with OpenAIServer(lambda call: answer(DEMO_SAMPLES)) as server:
        report = generate_dataset(config(tmp_path / "gen", server))
    assert report.written == len(DEMO_SAMPLES) and report.flagged == 0
    summary = runner.run(runner.RunConfig(dataset="gen", dataset_dir=tmp_path / "gen", backend="oracle"),
                         tmp_path / "run")
    assert summary.complete and summary.samples == len(DEMO_SAMPLES)
    assert summary.overall["Correct implementations (t)"] == 1.0
    assert summary.overall["Total errors"] == 0


def test_the_cli_command(tmp_path):
    import typer
    from typer.testing import CliRunner

    from wapii_core.cli.datasets import datasets_app

    app = typer.Typer()
    app.add_typer(datasets_app, name="datasets")
    with OpenAIServer(lambda call: answer(DEMO_SAMPLES[:4])) as server:
        done = CliRunner().invoke(app, [
            "datasets", "generate", "--spec", str(DEMO_SPEC), "--backend", "openai", "--model", "scripted-chat",
            "--out", str(tmp_path / "cli"), "--prompts", str(WAPIIBENCH / "prompts"),
            "-O", f"base_url={server.base_url}", "-O", "no_cache=true"])
    assert done.exit_code == 0, done.output
    assert done.stdout.strip() == str(tmp_path / "cli")
    assert "4 sample(s) written" in done.stderr
    checked = CliRunner().invoke(app, ["datasets", "check", "--dataset-dir", str(tmp_path / "cli")])
    assert checked.exit_code == 0 and checked.stdout == ""


def test_subset_requests_show_only_their_paths_and_the_components_they_use(tmp_path):
    from wapii_core.datasets.generate import _local_refs, endpoint_chunks, spec_subset, subset_text
    from wapii_core.openapi.parsing import parse_yaml

    spec = WAPIIBENCH / "specs" / "asana.yaml"
    document = read_spec(spec)
    chunks = endpoint_chunks(document, 100, 30)
    assert len(chunks) > 1
    for chunk in chunks:
        subset = spec_subset(document, chunk)
        assert list(subset["paths"]) == chunk and subset["servers"] == document["servers"]
        for ref in _local_refs(subset):  # self-contained: every reference resolves inside the subset
            node = subset
            for part in ref[2:].split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
        text = subset_text(subset, False)
        assert parse_yaml(spec, text.encode()) == subset and len(text) < spec.stat().st_size / 2
    with OpenAIServer(lambda call: json.dumps({"samples": []})) as server:
        with pytest.raises(WapiiError):  # no sample at all: nothing written, but every request was made
            generate_dataset(GenerateConfig(
                spec=spec, backend="openai", model="scripted-chat", out=tmp_path / "asana", subset_spec=True,
                prompts_dir=WAPIIBENCH / "prompts", backend_options={"base_url": server.base_url, "no_cache": "true"}))
        users = [call.body["messages"][1]["content"] for call in server.calls]
    assert len(users) == len(chunks)
    for user, chunk in zip(users, chunks):
        others = [p for c in chunks if c is not chunk for p in c if all(p not in q for q in chunk)]
        assert all(f"\n  {p}:" in user for p in chunk) and not any(f"\n  {p}:\n" in user for p in others)
