"""Run files round-trip every string: a value holding U+2028 (or another character ``str.splitlines``
splits at) is stored and read back, the same command resumes the run and ``wapii evaluate`` re-scores
it; a generations line that UTF-8 cannot store (a lone surrogate) is refused on reading."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from wapii_core.base.model import SampleResult
from wapii_core.store.rundir import read_jsonl

SEPARATORS = "\u2028\u2029\x85\x0b\x0c\x1c\x1d\x1e\r"
"""Every character ``str.splitlines`` splits at, besides ``\\n``."""


def wapii(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wapii_core", *args], capture_output=True, text=True, timeout=300)


def test_jsonl_lines_split_at_newline_only(tmp_path: Path) -> None:
    result = SampleResult(sample="a/0", api="a", verdict="wrong", error_detail=f"x{SEPARATORS}y")
    path = tmp_path / "results.jsonl"
    path.write_text(result.model_dump_json() + "\n" + result.model_copy(update={"sample": "a/1"}).model_dump_json()
                    + "\n", encoding="utf-8")
    assert [r.error_detail for r in read_jsonl(path, SampleResult)] == [f"x{SEPARATORS}y"] * 2


@pytest.mark.slow
def test_a_value_with_line_separators_survives_resume_and_evaluate(tmp_path: Path) -> None:
    pytest.importorskip("wapii_requests_py")
    program = ("import requests\nrequests.post('https://api.larchwood-library.example/v2/books', "
               f"headers={{'X-Odd': 'v\u2028\u2029\x85w'}}, json={{'note': {'v' + SEPARATORS + 'w'!r}}})\n")
    generations = tmp_path / "generations.jsonl"
    generations.write_text(json.dumps({"sample": "larchwood/0", "code": program}) + "\n")
    out = tmp_path / "run"
    args = ["run", "--dataset", "demo", "--adapter", "requests_py", "--backend", "replay", "--generations",
            str(generations), "--limit", "1", "--out", str(out), "--quiet"]
    first = wapii(*args)
    assert first.returncode == 0, first.stderr
    stored = (out / "results.jsonl").read_text(encoding="utf-8")
    assert "\u2028" in stored and (out / "summary.json").is_file()
    again = wapii(*args)
    assert again.returncode == 0, again.stderr
    assert (out / "results.jsonl").read_text(encoding="utf-8") == stored
    evaluated = wapii("evaluate", str(out), "--quiet")
    assert evaluated.returncode == 0, evaluated.stderr
    [result] = read_jsonl(out / "results.jsonl", SampleResult)
    assert result.request["headers"]["X-Odd"] == "v\u2028\u2029\x85w"
    assert result.request["data"]["note"] == "v" + SEPARATORS + "w"


def test_a_lone_surrogate_in_a_generations_line_is_refused(tmp_path: Path) -> None:
    generations = tmp_path / "generations.jsonl"
    generations.write_text('{"sample": "larchwood/0", "code": "import requests\\nrequests.get(\'\\ud800\')\\n"}\n')
    out = tmp_path / "run"
    done = wapii("run", "--dataset", "demo", "--adapter", "requests_py", "--backend", "replay", "--generations",
                 str(generations), "--limit", "1", "--out", str(out), "--quiet")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "lone surrogate" in done.stderr and str(generations) in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (out / "run.json").exists() and not list(out.glob("*.jsonl")) if out.exists() else True
