"""Failures that say so: each preflight failure is one line, exit 2, and no run directory; a run
whose generations failed exits 3 naming the cause; a refused connection is not retried like a 429."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from fake_openai import Fault, OpenAIServer, Reply
from support import run_cli
from wapii_core.base.model import GenerationRequest, Prompt, Sample
from wapii_core.base.protocols import BackendOptions
from wapii_openai_models.backend import OpenAIBackend


def openai_run(out: Path, model: str, *options: str, env: dict[str, str] | None = None):
    args = ["run", "--dataset", "demo", "--backend", "openai", "--model", model, "--out", str(out)]
    for option in options:
        args += [option] if option.startswith("-") else ["-O", option]
    return run_cli(*args, env=env)


def one_line_refusal(done, *fragments: str, resumed: bool = False) -> None:
    """Exit 2 and one error line (after the line saying what a resumed run kept, when ``resumed``)."""
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert done.stdout == "" and len(lines) == 1 + resumed, done.stderr
    assert lines[-1].startswith("error: backend openai: ")
    if resumed:
        assert lines[0].startswith("resuming ") and "kept 5 of 26 generations" in lines[0]
    for fragment in fragments:
        assert fragment in done.stderr, done.stderr


def dead_url() -> str:
    dead = OpenAIServer()
    url = dead.base_url
    dead.stop()  # nothing listens on its port any more
    return url


def without(name: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop(name, None)
    return env


@pytest.mark.slow
def test_a_hosted_api_without_its_key_is_refused_before_any_network_access(tmp_path):
    out = tmp_path / "run"
    started = time.monotonic()
    done = run_cli("run", "--backend", "openai", "--model", "gpt-4o-mini", "--out", str(out), "-q",
                   env={**without("OPENAI_API_KEY"), "HTTPS_PROXY": "http://127.0.0.1:9"})
    one_line_refusal(done, "https://api.openai.com/v1 needs an API key", "$OPENAI_API_KEY is not set")
    assert not out.exists() and time.monotonic() - started < 30


@pytest.mark.slow
def test_a_server_that_wants_a_key_and_gets_none_or_a_wrong_one(tmp_path, model_name):
    with OpenAIServer(api_key="sk-right") as guarded:
        out = tmp_path / "run"
        env = without("WAPII_TEST_KEY")
        none = openai_run(out, model_name, f"base_url={guarded.base_url}", "api_key_env=WAPII_TEST_KEY", env=env)
        one_line_refusal(none, "needs an API key (HTTP 401)", "$WAPII_TEST_KEY is not set")
        wrong = openai_run(out, model_name, f"base_url={guarded.base_url}", "api_key_env=WAPII_TEST_KEY",
                           env={**env, "WAPII_TEST_KEY": "sk-wrong"})
        one_line_refusal(wrong, "refused the API key in $WAPII_TEST_KEY (HTTP 401")
        assert "sk-wrong" not in wrong.stderr
        assert not out.exists() and guarded.requests == 0


@pytest.mark.slow
def test_an_unreachable_server_is_refused_at_once(tmp_path, model_name):
    out = tmp_path / "run"
    url = dead_url()
    done = openai_run(out, model_name, f"base_url={url}")
    one_line_refusal(done, f"cannot reach {url}", "Connection refused")
    assert not out.exists()


@pytest.mark.slow
def test_an_unknown_host_is_refused_at_once(tmp_path, model_name):
    out = tmp_path / "run"
    started = time.monotonic()
    done = openai_run(out, model_name, "base_url=http://wapii-no-such-host.invalid/v1")
    one_line_refusal(done, "cannot reach http://wapii-no-such-host.invalid/v1")
    assert not out.exists() and time.monotonic() - started < 60


@pytest.mark.slow
def test_a_model_the_server_does_not_serve_is_refused(tmp_path):
    with OpenAIServer(models=["acme/coder-7b"]) as server:
        out = tmp_path / "run"
        done = openai_run(out, "acme/coder-7B", f"base_url={server.base_url}")
        one_line_refusal(done, "does not serve model 'acme/coder-7B' (it lists: acme/coder-7b;",
                         "-O preflight=false")
        assert not out.exists() and server.requests == 0
        skipped = openai_run(out, "acme/coder-7B", f"base_url={server.base_url}", "preflight=false", "retries=0")
        assert skipped.returncode == 3 and "does not exist" in skipped.stderr  # the server's own 404, per request


@pytest.mark.slow
def test_a_run_served_by_the_cache_needs_no_server(tmp_path, model_name):
    with OpenAIServer() as server:
        url = server.base_url
        assert openai_run(tmp_path / "first", model_name, f"base_url={url}").returncode == 0
    done = openai_run(tmp_path / "again", model_name, f"base_url={url}", "-q")
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
def test_a_resumed_run_is_checked_too_and_keeps_its_directory(tmp_path, model_name):
    answered = {"n": 0}

    def answer_five_then_break(call):
        answered["n"] += 1
        if answered["n"] == 5:
            server.fail_always(Fault("server_error", status=503))
        return Reply("get('https://api.example.test/x');\n```\n")

    with OpenAIServer(answer_five_then_break) as server:
        out = tmp_path / "run"
        first = openai_run(out, model_name, f"base_url={server.base_url}", "retries=0", "concurrency=1")
        url = server.base_url
    assert first.returncode == 3
    done = openai_run(out, model_name, f"base_url={url}")
    one_line_refusal(done, f"cannot reach {url}", resumed=True)
    assert (out / "run.json").exists() and len((out / "generations.jsonl").read_text().splitlines()) == 26


@pytest.mark.slow
def test_generations_failing_mid_run_exit_3_naming_the_cause_and_the_count(tmp_path, model_name):
    answered = {"n": 0}

    def answer_ten_then_break(call):
        answered["n"] += 1
        if answered["n"] == 10:
            server.fail_always(Fault("server_error", status=503))
        return Reply("get('https://api.example.test/x');\n```\n")

    with OpenAIServer(answer_ten_then_break) as server:
        for quiet in (False, True):
            out = tmp_path / f"run-{quiet}"
            answered["n"] = 0
            server.fail_always(None)
            done = openai_run(out, model_name, f"base_url={server.base_url}", "retries=1", "concurrency=1",
                              "no_cache=true", *(["-q"] if quiet else []))
            assert done.returncode == 3, done.stderr
            last = done.stderr.strip().splitlines()[-1]
            assert last.startswith(f"error: {out}: 16 of 26 generations failed (16x ")
            assert "HTTP 503" in last and "run the same command again to retry them" in last


def one_request() -> list[GenerationRequest]:
    sample = Sample(api="demo", index=0, task="t", config={"url": "u", "method": "get", "headers": {}})
    return [GenerationRequest(sample=sample, prompt=Prompt(text="x\naxios.", starter="axios."))]


def test_a_refused_connection_is_not_retried_like_a_rate_limit(model_name):
    backend = OpenAIBackend(BackendOptions(model=model_name, extra={
        "base_url": dead_url(), "retries": "5", "backoff": "2", "no_cache": "true"}))
    started = time.monotonic()
    try:
        (gen,) = list(backend.generate(one_request()))
    finally:
        backend.close()
    assert time.monotonic() - started < 1.5  # one backoff alone would be at least 1 s
    assert "cannot connect" in gen.error and "not retried" in gen.error


@pytest.mark.slow
@pytest.mark.parametrize("concurrency", [100])
def test_concurrency_means_requests_in_flight_at_the_server(tmp_path, model_name, concurrency):
    with OpenAIServer(latency=1.0) as server:
        done = run_cli("run", "--dataset", "demo", "--backend", "openai", "--model", model_name, "-q", "-n", "5",
                       "--out", str(tmp_path / "run"), "-O", f"base_url={server.base_url}",
                       "-O", f"concurrency={concurrency}")
        assert done.returncode == 0, done.stderr
        assert server.answered == 130 and server.peak_in_flight == concurrency
