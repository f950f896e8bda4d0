"""A captured request that the judge cannot normalise, compare or store is that sample's
``runtime_error`` (``bad_capture``), never the end of the run.

Real axios programs in a replay run (the Python adapters' own guards are exercised by
``tests/hostile/py_run``): a header value or a query value holding a lone surrogate (JavaScript
strings may, UTF-8 results cannot) and a body nested 600 levels deep (past what the result store
writes) used to end the run with a traceback at that sample, on every rerun.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import WAPIIBENCH, needs_shared

pytestmark = needs_shared("wapiibench", "dataset.json")

ATTACHMENT = "https://app.asana.com/api/1.0/attachments"
PROGRAMS = {
    "asana/1": f"import axios from 'axios';\naxios.post('{ATTACHMENT}', {{name: JSON.parse('['.repeat(600) + "
               "']'.repeat(600))});\n",
    "asana/2": f"import axios from 'axios';\naxios.get('{ATTACHMENT}/12345', {{headers: {{X: '\\ud800'}}}});\n",
    "asana/3": f"import axios from 'axios';\naxios.get('{ATTACHMENT}/12345', {{params: {{limit: '\\ud800'}}}});\n",
    "asana/4": f"import axios from 'axios';\naxios.get('{ATTACHMENT}/12345', "
               "{headers: {Authorization: 'Bearer <token>'}});\n",  # asana/2's call, sample asana/4: illegal
}


@pytest.mark.parametrize("mode", ["reference", "wire"])
def test_requests_the_judge_cannot_hold_are_bad_captures(mode: str, tmp_path: Path) -> None:
    from wapii_core.run.runner import RunConfig, run

    generations = tmp_path / "generations.jsonl"
    generations.write_text("".join(json.dumps({"sample": s, "code": c}) + "\n" for s, c in PROGRAMS.items()))
    out = tmp_path / "run"
    summary = run(RunConfig(dataset="wapiibench", data_dir=WAPIIBENCH, adapter="axios_js", backend="replay",
                            generations=generations, limit=5, mode=mode), out)
    assert summary.judged == len(PROGRAMS) and (out / "report.md").is_file()
    results = {r["sample"]: r for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())}
    for sample in ("asana/1", "asana/2", "asana/3"):
        assert results[sample]["error"] == "runtime_error", results[sample]
        assert results[sample]["error_detail"].startswith("bad_capture: ")
    assert results["asana/4"]["error"] is None
