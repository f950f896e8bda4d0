"""``-O batch=true`` (OpenAI's Batch API) and ``-O batch=files`` (vLLM's batch runner) through the real
CLI against the test server's ``/v1/files`` and ``/v1/batches``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import urllib3

import pytest

from fake_openai import Fault, OpenAIServer, run_batch
from support import run_cli, without_sandbox_warnings
from wapii_core.api import BackendOptions, GenerationRequest, Prompt, Sample, WapiiError
from wapii_openai_models.backend import OpenAIBackend

DEMO_SAMPLES = 26


def batch_args(server: OpenAIServer, model: str, out: Path, *options: str) -> list[str]:
    args = ["run", "--dataset", "demo", "--backend", "openai", "--model", model, "--out", str(out), "--quiet",
            "-O", f"base_url={server.base_url}", "-O", "batch=true", "-O", "batch_poll=0.1", "-O", "backoff=0.01"]
    for option in options:
        args += ["-O", option]
    return args


def summary(run_dir: Path) -> dict:
    return json.loads((run_dir / "summary.json").read_text())


def generations(run_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (run_dir / "generations.jsonl").read_text().splitlines() if line.strip()]


def in_process(server: OpenAIServer, model: str, count: int, **extra: str) -> list:
    """The generations of ``count`` requests through batches, the backend used from Python (it waits)."""
    options = {"base_url": server.base_url, "batch": "true", "batch_poll": "0.05", "backoff": "0.01",
               "max_backoff": "0.02", "no_cache": "true", **extra}
    backend = OpenAIBackend(BackendOptions(model=model, extra=options))
    starter = "const axios = require('axios');\n\naxios."
    requests = [GenerationRequest(sample=Sample(api="demo", index=i, task=f"task {i}", config={}), draw=0,
                                  prompt=Prompt(text=f"// task {i}\n" + starter, starter=starter))
                for i in range(count)]
    try:
        return list(backend.generate(requests))
    finally:
        backend.close()


def test_the_batch_apis_calls_are_retried_like_requests(model_name):
    with OpenAIServer(models=[model_name]) as server:
        server.inject_batch_api(Fault("rate_limit", retry_after=0.05), Fault("server_error", status=503),
                                Fault("drop"), Fault("slow", delay=0.1), Fault("server_error", status=502))
        gens = in_process(server, model_name, 3)
        assert [g.error for g in gens] == [None] * 3 and len({g.code for g in gens}) == 3
        assert server.batches.created == 1 and server.batches.uploads == 1


def test_a_batch_api_call_that_keeps_failing_is_one_line_naming_the_call(model_name):
    with OpenAIServer(models=[model_name]) as server:
        server.inject_batch_api(*[Fault("server_error", status=503)] * 6)  # the listing's 3 attempts, the upload's 3
        with pytest.raises(WapiiError) as raised:
            in_process(server, model_name, 2, retries="2")
        assert str(raised.value).startswith(f"backend openai: POST {server.base_url}/files failed: HTTP 503")
        assert "\n" not in str(raised.value) and server.batches.uploads == 0


def test_a_refused_batch_api_call_is_not_retried(model_name):
    with OpenAIServer(models=[model_name]) as server:
        server.inject_batch_api(Fault("server_error", status=400), Fault("server_error", status=400))
        with pytest.raises(WapiiError, match=r"/files failed: HTTP 400"):  # a refused listing only finds nothing to adopt
            in_process(server, model_name, 2)
        assert server.batches.uploads == 0


def test_a_batch_api_error_never_shows_the_key(monkeypatch, model_name):
    monkeypatch.setenv("WAPII_TEST_KEY", "sk-wrong-0123456789")
    with OpenAIServer(api_key="sk-right", models=[model_name]) as server:
        with pytest.raises(WapiiError) as raised:
            in_process(server, model_name, 2, api_key_env="WAPII_TEST_KEY")
        message = str(raised.value)
        assert message.startswith(f"backend openai: POST {server.base_url}/files failed: HTTP 401")
        assert "Incorrect API key provided: ***" in message and "sk-wrong" not in message


@pytest.mark.slow
def test_a_batch_run_scores_as_the_same_requests_sent_one_by_one(tmp_path, model_name):
    with OpenAIServer(models=[model_name]) as server:
        direct = run_cli("run", "--dataset", "demo", "--backend", "openai", "--model", model_name, "--quiet",
                         "--out", str(tmp_path / "direct"), "-O", f"base_url={server.base_url}", "-O", "no_cache=true")
        assert direct.returncode == 0, direct.stderr
        server.reset_counts()
        done = run_cli(*batch_args(server, model_name, tmp_path / "batch", "batch_wait=true", "no_cache=true"))
        assert done.returncode == 0, done.stderr
        assert server.batches.created == 1 and server.batches.uploads == 1 and server.requests == 0
        assert summary(tmp_path / "batch") == summary(tmp_path / "direct")
        (batch,) = server.batches.all()
        assert batch["endpoint"] == "/v1/completions" and batch["request_counts"]["completed"] == DEMO_SAMPLES
        again = run_cli(*batch_args(server, model_name, tmp_path / "again"))  # answers were cached
        assert again.returncode == 0, again.stderr
        assert server.batches.created == 1


@pytest.mark.slow
def test_a_running_batch_exits_0_with_its_status_and_the_next_run_collects_the_same_batch(tmp_path, model_name):
    with OpenAIServer(models=[model_name]) as server:
        server.batches.behave(duration=2.0)
        out = tmp_path / "run"
        first = run_cli(*batch_args(server, model_name, out))
        assert first.returncode == 0, first.stderr
        assert "still running" in first.stdout and "batch_wait=true" in first.stdout
        assert (out / "run.json").exists() and not (out / "summary.json").exists()
        record = json.loads((out / "batches.json").read_text())["batches"][0]
        assert record["id"] in first.stdout and len(record["custom_ids"]) == DEMO_SAMPLES
        time.sleep(2.1)
        done = run_cli(*batch_args(server, model_name, out))
        assert done.returncode == 0, done.stderr
        assert server.batches.created == 1 and summary(out)["complete"] is True


@pytest.mark.slow
def test_kill_9_while_waiting_for_a_batch_and_the_rerun_resumes_the_same_batch(tmp_path, model_name):
    with OpenAIServer(models=[model_name]) as server:
        server.batches.behave(duration=4.0)
        out = tmp_path / "run"
        args = batch_args(server, model_name, out, "batch_wait=true")
        proc = subprocess.Popen([sys.executable, "-m", "wapii_core", *args], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env=dict(os.environ))
        deadline = time.monotonic() + 60
        while server.batches.polls < 2 and time.monotonic() < deadline:  # created, recorded, being polled
            assert proc.poll() is None, "the run ended before it could be killed"
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
        assert server.batches.created == 1 and not (out / "summary.json").exists()
        done = run_cli(*args)
        assert done.returncode == 0, done.stderr
        assert server.batches.created == 1 and server.batches.uploads == 1  # paid once
        assert summary(out)["complete"] is True and summary(out)["judged"] == DEMO_SAMPLES


@pytest.mark.slow
def test_a_batch_created_but_not_recorded_is_found_at_the_provider(tmp_path, model_name):
    with OpenAIServer(models=[model_name]) as server:
        server.batches.behave(duration=1.0)
        out = tmp_path / "run"
        assert run_cli(*batch_args(server, model_name, out)).returncode == 0
        (out / "batches.json").unlink()  # as if the run died between creating the batch and recording it
        done = run_cli(*batch_args(server, model_name, out, "batch_wait=true"))
        assert done.returncode == 0, done.stderr
        assert server.batches.created == 1 and summary(out)["complete"] is True


@pytest.mark.slow
def test_expired_and_failed_lines_are_failed_samples_that_a_resume_sends_again(tmp_path, model_name):
    lines = {"n": 0}

    def every_third_line_fails(body):
        lines["n"] += 1
        return "prompt rejected" if lines["n"] % 3 == 1 else None

    with OpenAIServer(models=[model_name]) as server:
        server.batches.behave(expire=True, expire_done=0.5, line_error=every_third_line_fails)
        out = tmp_path / "run"
        first = run_cli(*batch_args(server, model_name, out, "batch_wait=true"))
        assert first.returncode == 3, first.stderr
        told = without_sandbox_warnings(first.stderr)
        assert told.startswith("error: ") and len(told.strip().splitlines()) == 1
        failed = summary(out)["failed_generations"]
        causes = Counter(f["error"].split(": ", 2)[1] for f in failed)
        assert causes == {"batch_expired": 13, "HTTP 400": 5}  # 13 of 26 ran; lines 1, 4, 7, 10, 13 refused
        assert f"18 of {DEMO_SAMPLES} generations failed (13x batch " in first.stderr

        server.batches.behave(expire=False, line_error=None)
        done = run_cli(*batch_args(server, model_name, out, "batch_wait=true"))
        assert done.returncode == 0, done.stderr
        batches = server.batches.all()
        assert len(batches) == 2 and batches[1]["request_counts"]["total"] == len(failed)
        assert summary(out)["complete"] is True


@pytest.mark.slow
def test_a_large_run_is_split_into_batches_within_the_limits(tmp_path, model_name):
    with OpenAIServer(models=[model_name]) as server:
        out = tmp_path / "run"
        done = run_cli(*batch_args(server, model_name, out, "batch_wait=true", "batch_max_requests=10"))
        assert done.returncode == 0, done.stderr
        assert [b["request_counts"]["total"] for b in server.batches.all()] == [10, 10, 6]
        line = len(json.dumps({"custom_id": "x" * 64, "method": "POST", "url": "/v1/completions",
                               "body": {"prompt": ""}}))
        done = run_cli(*batch_args(server, model_name, tmp_path / "bytes", "batch_wait=true", "no_cache=true",
                                   f"batch_max_bytes={line * 3}"))  # one prompt per part at most
        assert done.returncode == 0, done.stderr
        assert len(server.batches.all()) == 3 + DEMO_SAMPLES


@pytest.mark.slow
def test_a_cancelled_or_failed_batch_fails_its_samples_and_a_resume_sends_them_again(tmp_path, model_name):
    with OpenAIServer(models=[model_name]) as server:
        server.batches.behave(duration=30.0)
        out = tmp_path / "run"
        assert run_cli(*batch_args(server, model_name, out)).returncode == 0
        batch_id = json.loads((out / "batches.json").read_text())["batches"][0]["id"]
        assert urllib3.request("POST", f"{server.base_url}/batches/{batch_id}/cancel").status == 200
        cancelled = run_cli(*batch_args(server, model_name, out))
        assert cancelled.returncode == 3 and f"batch {batch_id} ended cancelled" in cancelled.stderr

        server.batches.behave(duration=0.0, fail="input file rejected")
        failed = run_cli(*batch_args(server, model_name, out, "batch_wait=true"))
        assert failed.returncode == 3 and "failed: input file rejected" in failed.stderr

        server.batches.behave(fail=None)
        done = run_cli(*batch_args(server, model_name, out, "batch_wait=true"))
        assert done.returncode == 0, done.stderr
        assert server.batches.created == 3 and summary(out)["complete"] is True


@pytest.mark.slow
def test_chat_requests_go_to_the_chat_batch_endpoint(tmp_path):
    with OpenAIServer(models=["acme/coder-instruct"]) as server:
        out = tmp_path / "run"
        done = run_cli(*batch_args(server, "acme/coder-instruct", out, "batch_wait=true", "no_cache=true"))
        assert done.returncode == 0, done.stderr
        assert server.batches.all()[0]["endpoint"] == "/v1/chat/completions"
        assert all(g["error"] is None and "axios.get(" in g["code"] for g in generations(out))


@pytest.mark.slow
def test_batch_files_for_vllms_runner(tmp_path, model_name):
    with OpenAIServer(models=[model_name]) as server:  # only to compare with: batch=files needs no server
        direct = run_cli("run", "--dataset", "demo", "--backend", "openai", "--model", model_name, "--quiet",
                         "--out", str(tmp_path / "direct"), "-O", f"base_url={server.base_url}", "-O", "no_cache=true")
        assert direct.returncode == 0, direct.stderr
    out = tmp_path / "run"
    args = ["run", "--dataset", "demo", "--backend", "openai", "--model", model_name, "--out", str(out),
            "-O", "base_url=http://127.0.0.1:9/v1", "-O", "batch=files", "-O", "no_cache=true", "--quiet"]
    first = run_cli(*args)
    assert first.returncode == 0, first.stderr
    source, target = out / "batch" / "input-0000.jsonl", out / "batch" / "output-0000.jsonl"
    assert f"vllm run-batch -i {source} -o {target} --model {model_name}" in first.stdout
    lines = [json.loads(line) for line in source.read_text().splitlines()]
    assert len(lines) == DEMO_SAMPLES and {line["url"] for line in lines} == {"/v1/completions"}
    assert all(line["method"] == "POST" and line["body"]["model"] == model_name for line in lines)

    assert run_cli(*args).returncode == 0  # no output yet: still waiting for the runner
    run_batch(source, target)
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    assert summary(out) == summary(tmp_path / "direct")


@pytest.mark.slow
def test_a_damaged_batch_record_is_a_one_line_error(tmp_path, model_name):
    with OpenAIServer(models=[model_name]) as server:
        out = tmp_path / "run"
        out.mkdir()
        (out / "batches.json").write_text('{"batches": [{"kind": "api"}]}')
        done = run_cli(*batch_args(server, model_name, out))
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.startswith(f"error: {out / 'batches.json'}: not a batch record")
        assert len(done.stderr.strip().splitlines()) == 1 and server.batches.created == 0
