"""``wapii run --backend openai`` end to end against the test server: kill -9 and resume, failures, reruns."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fake_openai import Fault, OpenAIServer, Reply
from support import run_cli


def run_args(server: OpenAIServer, model: str, out: Path, *options: str) -> list[str]:
    args = ["run", "--dataset", "demo", "--backend", "openai", "--model", model, "--out", str(out), "--quiet",
            "-O", f"base_url={server.base_url}", "-O", "backoff=0.01"]
    for option in options:
        args += ["-O", option]
    return args


def summary(run_dir: Path) -> dict:
    return json.loads((run_dir / "summary.json").read_text())


def complete_lines(path: Path) -> list[dict]:
    raw = path.read_text() if path.exists() else ""
    return [json.loads(line) for line in raw.split("\n")[:-1] if line.strip()]


def results(run_dir: Path) -> dict:
    """Result lines by sample, without the execution time measured (what a rerun may not repeat)."""
    return {r["sample"]: {k: v for k, v in r.items() if k != "timings"} for r in complete_lines(run_dir / "results.jsonl")}


@pytest.mark.slow
def test_kill_9_mid_run_and_resume_give_the_uninterrupted_summary(tmp_path, model_name):
    with OpenAIServer(latency=0.1, models=[model_name]) as server:
        options = ("concurrency=1", "no_cache=true")
        whole, cut = tmp_path / "whole", tmp_path / "cut"
        done = run_cli(*run_args(server, model_name, whole, *options))
        assert done.returncode == 0, done.stderr
        total = server.answered
        assert total == summary(whole)["samples"] >= 20
        server.reset_counts()

        proc = subprocess.Popen([sys.executable, "-m", "wapii_core", *run_args(server, model_name, cut, *options)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ))
        deadline = time.monotonic() + 120
        while len(complete_lines(cut / "generations.jsonl")) < 8 and time.monotonic() < deadline:
            assert proc.poll() is None, "the run ended before it could be killed"
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
        kept = len(complete_lines(cut / "generations.jsonl"))
        assert 8 <= kept < total and not (cut / "summary.json").exists()
        asked_before = server.requests

        done = run_cli(*run_args(server, model_name, cut, *options))
        assert done.returncode == 0, done.stderr
        assert summary(cut) == summary(whole)
        assert results(cut) == results(whole)
        assert server.requests - asked_before == total - kept  # nothing finished was asked again


@pytest.mark.slow
def test_a_failing_server_loses_no_finished_sample_and_a_resume_completes_the_run(tmp_path, model_name):
    answered = {"n": 0}

    def answer_ten_then_break(call):
        answered["n"] += 1
        if answered["n"] == 10:
            server.fail_always(Fault("server_error", status=503))
        return Reply("get('https://api.example.test/x');\n```\n")

    with OpenAIServer(answer_ten_then_break, models=[model_name]) as server:
        out = tmp_path / "run"
        done = run_cli(*run_args(server, model_name, out, "concurrency=1", "retries=1"))
        assert done.returncode == 3 and "HTTP 503" in done.stderr, done.stderr  # failed generations say so
        first = summary(out)
        assert first["complete"] is False and first["judged"] == 10
        assert len(first["failed_generations"]) == first["samples"] - 10
        assert all("HTTP 503" in f["error"] for f in first["failed_generations"])
        finished = {g["sample"]: g for g in complete_lines(out / "generations.jsonl") if g["error"] is None}
        assert len(finished) == 10

        server.fail_always(None)
        server.reset_counts()
        done = run_cli(*run_args(server, model_name, out, "concurrency=1"))
        assert done.returncode == 0, done.stderr
        assert server.requests == first["samples"] - 10  # only the failed ones were asked again
        final = summary(out)
        assert final["complete"] is True and final["judged"] == final["samples"] and not final["failed_generations"]
        latest = {g["sample"]: g for g in complete_lines(out / "generations.jsonl")}
        assert all(latest[s] == g for s, g in finished.items())

        fresh = tmp_path / "fresh"
        assert run_cli(*run_args(server, model_name, fresh, "no_cache=true")).returncode == 0
        assert summary(fresh) == final


@pytest.mark.slow
def test_a_rerun_of_a_finished_run_makes_zero_model_calls(tmp_path, model_name):
    with OpenAIServer(models=[model_name]) as server:
        first = tmp_path / "first"
        assert run_cli(*run_args(server, model_name, first)).returncode == 0
        samples = summary(first)["samples"]
        assert server.requests == samples
        server.reset_counts()
        assert run_cli(*run_args(server, model_name, first)).returncode == 0  # same directory: resumed
        assert server.requests == 0
        again = tmp_path / "again"
        done = run_cli(*run_args(server, model_name, again))  # a fresh directory: served by the cache
        assert done.returncode == 0, done.stderr
        assert server.requests == 0
        assert summary(again) == summary(first)
        run_json = (again / "run.json").read_text()
        assert server.base_url not in run_json  # run identity does not depend on where the servers are
