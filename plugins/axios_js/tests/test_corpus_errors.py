"""Error classification of the 395-program conformance corpus against the reference pipeline's own.

The reference's per-sample `error` (no_request 22, incomplete_request 30, runtime_error 23, none
320) checks extraction and execution end to end; judging is tested by the core's conformance test.
"""

from __future__ import annotations

import json
from pathlib import Path

from wapii_axios_js.adapter import AxiosAdapter


def test_error_verdicts_match_the_reference(adapter: AxiosAdapter, shared: Path) -> None:
    corpus = shared / "conformance"
    reference = json.loads((corpus / "corpus_a.reference.json").read_text())["samples"]
    assert len(reference) == 395
    ids = sorted(reference)
    programs = []
    for sample_id in ids:
        api, index = sample_id.split("/")
        programs.append((corpus / "corpus_a" / api / f"{int(index):04d}_code.js").read_text())
    extractions = [adapter.extract(code) for code in programs]
    runnable = [i for i, e in enumerate(extractions) if e.call is not None]
    captures = dict(zip(runnable, adapter.execute([extractions[i].call for i in runnable])))
    ours = {
        sample_id: extractions[i].error or captures[i].error
        for i, sample_id in enumerate(ids)
    }
    disagreements = {s: (ours[s], reference[s]["error"]) for s in ids if ours[s] != reference[s]["error"]}
    assert disagreements == {}
    assert all(captures[i].request is not None for i in runnable if ours[ids[i]] is None)
