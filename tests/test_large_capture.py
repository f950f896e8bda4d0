"""A program that sends a request too large to judge (:mod:`wapii_core.judge.capture_limits`), in a real run.

``tests/hostile/large/<adapter>.*`` holds, one per line after the comment, four calls: a 3.5 MB JSON
body; a form body of 400,000 keys (200,000 for axios, whose record of a larger one is past the Node
worker's 4 MiB answer); a body under the size bound with more values than judged (20,000 repeated
keys in a 40 KB form; for axios, whose capture keeps a repeated form key once, an object of 5,000
keys); a call that throws an error whose message is 3 MB. Each replaces one Asana sample's
generation in a replay run of that adapter (real sandbox, real library); each must be a
``runtime_error``, the first three with a detail that says the request is too large to judge, every
detail at most 500 characters, nothing of the request stored: the run's ``results.jsonl`` and
``summary.json`` stay small.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import WAPIIBENCH, needs_shared

CORPUS = Path(__file__).resolve().parent / "hostile" / "large"
PROGRAMS = {"axios_js": "axios_js.js", "fetch_js": "fetch_js.js", "requests_py": "requests_py.py"}
PRELUDES = {"axios_js": "const axios = require('axios');\n", "fetch_js": "", "requests_py": "import requests\n"}
DETAILS = ["bad_capture: the captured request is larger than the 262144 bytes judged (",
           "bad_capture: the captured request is larger than the 262144 bytes judged (",
           "bad_capture: the captured request holds more than the 4096 values judged",
           ""]

pytestmark = needs_shared("wapiibench", "dataset.json")


@pytest.mark.slow
@pytest.mark.parametrize("adapter_name", sorted(PROGRAMS))
def test_a_request_too_large_to_judge_is_a_runtime_error_and_is_not_stored(
        adapter_name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from wapii_core.base import plugins
    from wapii_core.run.runner import RunConfig, load_dataset, run

    if adapter_name not in plugins.adapters.names():
        pytest.skip(f"adapter {adapter_name} is not installed")
    monkeypatch.setenv("WAPII_PYTHON_TIMEOUT", "10")  # the program's own time is not what is tested here
    monkeypatch.setenv(f"WAPII_{adapter_name.upper()}_TIMEOUT", "10")
    calls = (CORPUS / PROGRAMS[adapter_name]).read_text().splitlines()[1:]
    prelude = PRELUDES[adapter_name]
    if adapter_name == "requests_py":
        calls = calls[1:]  # after its import line
    samples = [s for s in load_dataset("wapiibench", WAPIIBENCH).samples if s.api == "asana"][: len(calls)]
    generations = tmp_path / "generations.jsonl"
    generations.write_text("".join(json.dumps({"sample": s.id, "code": prelude + call + "\n"}) + "\n"
                                   for s, call in zip(samples, calls)))
    out = tmp_path / "run"
    summary = run(RunConfig(dataset="wapiibench", data_dir=WAPIIBENCH, adapter=adapter_name, backend="replay",
                            generations=generations, apis=["asana"], limit=len(calls)), out)

    assert summary.judged == len(calls)
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [(r["verdict"], r["error"]) for r in results] == [("nonexecutable", "runtime_error")] * len(calls)
    for result, detail in zip(results, DETAILS):
        assert result["error_detail"].startswith(detail), result["error_detail"]
        assert result["request"] is None and len(result["error_detail"]) <= 500
    assert (out / "results.jsonl").stat().st_size < 8 << 10
    assert (out / "summary.json").stat().st_size < 64 << 10
