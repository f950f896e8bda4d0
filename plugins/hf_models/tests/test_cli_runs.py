"""``wapii run --backend hf --model wapii-tiny`` end to end (real CLI, adapter and judging)."""

from __future__ import annotations

import json

import pytest

from support import run_cli

ARGS = ["run", "--backend", "hf", "--model", "wapii-tiny", "--dataset", "demo", "--limit", "5", "--quiet",
        "-O", "max_new_tokens=8", "-O", "threads=1"]


def lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.slow
def test_wapii_tiny_runs_end_to_end_and_a_rerun_loads_no_model(tmp_path, tiny_dir, monkeypatch):
    out = tmp_path / "run"
    done = run_cli(*ARGS, "--out", str(out))
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] and summary["samples"] == summary["judged"] == 5
    gens = lines(out / "generations.jsonl")
    assert len(gens) == 5 and all(g["code"].startswith("// ") and "\naxios." in g["code"] for g in gens)
    assert all(isinstance(g["prompt"], str) and g["prompt"].rstrip().endswith("axios.") for g in gens)  # as given
    run_json = json.loads((out / "run.json").read_text())
    assert run_json["backend_params"]["model"] == "wapii-tiny" and run_json["backend_params"]["dtype"] == "float32"

    # The same command into a fresh directory, in-process with model loading forbidden: all from the cache.
    import wapii_hf_models.backend as module
    from wapii_core.testing import RunConfig, run

    monkeypatch.setattr(module, "load_model", lambda *a, **k: pytest.fail("the model was loaded"))
    config = RunConfig(dataset="demo", backend="hf", model="wapii-tiny", limit=5,
                       backend_options={"max_new_tokens": "8", "threads": "1"})
    again = run(config, tmp_path / "again")
    assert again.data() == summary
    cached = sorted(lines(tmp_path / "again" / "generations.jsonl"), key=lambda g: g["sample"])
    untimed = lambda gs: [{k: v for k, v in g.items() if k != "timings"} for g in gs]  # noqa: E731
    assert untimed(cached) == untimed(sorted(gens, key=lambda g: g["sample"]))
    assert all(g["timings"] == {"latency_s": None, "queue_s": None, "tokens_in": None, "tokens_out": None}
               for g in cached)  # answered from the cache: nothing was spent
    assert all(g["timings"]["latency_s"] > 0 and g["timings"]["tokens_in"] > 0 and 0 < g["timings"]["tokens_out"] <= 8
               for g in gens)  # generated: what it cost
