"""A prompt longer than the model's context is refused in one line naming its token count, before
anything is generated or written (the ``spec`` setting puts a whole OpenAPI document in the prompt:
the demo's is about 8,000 tokens, wapii-tiny attends to 2,048)."""

from __future__ import annotations

import json

import pytest

from support import run_cli_in_process

ARGS = ["run", "--backend", "hf", "--model", "wapii-tiny", "--dataset", "demo", "--limit", "2", "--quiet",
        "-O", "max_new_tokens=8", "-O", "threads=1", "-O", "no_cache=true"]


@pytest.mark.slow
def test_the_spec_setting_on_a_small_context_is_one_line_naming_the_tokens(tmp_path, tiny_dir) -> None:
    out = tmp_path / "run"
    done = run_cli_in_process(*ARGS, "--setting", "spec", "--out", str(out))
    assert done.returncode == 2, done
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("error: the prompt of larchwood/") and "the context of 'wapii-tiny' (2,048 tokens)" in line
    tokens = int(line.split(" is ")[1].split(" tokens")[0].replace(",", ""))
    assert tokens > 2048
    assert not (out / "generations.jsonl").exists() or (out / "generations.jsonl").read_text() == ""


@pytest.mark.slow
def test_the_same_run_without_the_spec_fits_and_generates(tmp_path, tiny_dir) -> None:
    out = tmp_path / "run"
    done = run_cli_in_process(*ARGS, "--out", str(out))
    assert done.returncode == 0, done
    assert len([json.loads(line) for line in (out / "generations.jsonl").read_text().splitlines()]) == 2
