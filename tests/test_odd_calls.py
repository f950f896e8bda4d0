"""Odd but honest calls are judged as the published WAPIIBench pipeline judged them.

``tests/odd_calls/axios_js/<api>/<index:04d>_code.js``: programs (on the bundled demo dataset) that
call axios in ways a model writes and axios itself accepts: a URL that is an object, a number, a
list, ``null``, ``undefined`` or missing; a config object as the first argument; ``axios(config)``,
``axios(url, config)``, ``axios.request``, ``axios.default``, instances from ``axios.create``;
arguments in the wrong order; extra arguments. ``tests/odd_calls/axios_js.reference.json`` holds
what the published pipeline gives each one (recorded by ``tests/odd_calls/record_reference.py``:
the real axios behind axios-mock-adapter in plain Node, the reference's normalisation, metrics.md's
rules). A user's ``wapii run --backend replay`` must give every one of those verdicts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import run_cli
from wapii_core.base.model import SampleResult

FAMILY = Path(__file__).parent / "odd_calls"


@pytest.mark.slow
def test_every_odd_call_gets_the_published_verdict(tmp_path: Path) -> None:
    reference = json.loads((FAMILY / "axios_js.reference.json").read_text())
    programs = {f"{p.parent.name}/{int(p.name.split('_')[0])}" for p in (FAMILY / "axios_js").glob("*/*_code.js")}
    assert programs == set(reference)
    out = tmp_path / "run"
    done = run_cli("run", "--dataset", "demo", "--adapter", "axios_js", "--backend", "replay",
                   "--generations", str(FAMILY / "axios_js"), "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    results = {r.sample: r for r in map(SampleResult.model_validate_json, (out / "results.jsonl").read_text().splitlines())}
    diffs = []
    for sample, want in reference.items():
        got = results[sample]
        ours = {"error": got.error, "sample": got.verdict, "url": got.url, "method": got.method,
                "endpoint": got.endpoint, "arguments": {f: v for f, v in got.arguments.items() if v}}
        theirs = {k: want[k] for k in ours}
        if ours != theirs:
            diffs.append(f"{sample} ({want['shows']}): ours {ours}, published {theirs}; detail={got.error_detail!r}")
    assert not diffs, "\n".join(diffs)


def test_the_family_exercises_executed_odd_urls() -> None:
    """Most programs run and are judged (not refused): the family is about calls axios accepts."""
    reference = json.loads((FAMILY / "axios_js.reference.json").read_text())
    executed = [s for s, v in reference.items() if v["error"] is None]
    assert len(executed) >= 20
    assert sum(v["url"] == "illegal" for v in reference.values()) >= 7
