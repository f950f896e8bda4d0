"""``wapii view --bundle`` in a real browser shows a workflow sample's steps (each request paired with
an expected call, or extra) and its end state's differences, inert: a replayed program that creates
the task twice, the second time under a name that is markup, is listed with its extra request and
its damage, the markup shown as text, never run. Skipped without Chromium or Playwright."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from browser_page import CHROMIUM, listed_page
from support import run_cli
from test_workflows import BASE, CREATE, PROGRAM, PROGRAMS, TASK, dataset_dir

pytest.importorskip("playwright.sync_api", reason="needs Playwright (pip install -e '.[test]')")
pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (apt-get install -y chromium)"),
              pytest.mark.slow]

HOSTILE = '<img src=x onerror="document.body.dataset.pwned=1">'


def test_a_workflow_sample_shows_its_steps_and_end_state_inert(tmp_path: Path) -> None:
    directory = dataset_dir(tmp_path / "data", [TASK])
    twice = CREATE + CREATE.replace("Draft press release", HOSTILE.replace('"', '\\"')) + PROGRAMS["correct"]
    programs = tmp_path / "programs.jsonl"
    programs.write_text(json.dumps({"sample": "asana/0", "code": PROGRAM.format(base=BASE, body=twice)}) + "\n")
    run = tmp_path / "run"
    done = run_cli("run", "--backend", "replay", "--generations", str(programs), "--setup", "workflow",
                   "--dataset-dir", str(directory), "--adapter", "requests_py", "--out", str(run), "-q")
    assert done.returncode == 0, done.stderr
    result = json.loads((run / "results.jsonl").read_text())
    assert result["verdict"] == "wrong" and result["workflow"]["extra"] == 2
    done = run_cli("view", str(run), "--bundle", str(tmp_path / "bundle"), "--no-open")
    assert done.returncode == 0, done.stderr
    site = tmp_path / "bundle"
    with listed_page(site) as shown:
        page = shown.page
        shown.open_sample("asana/0")
        rows = [row.inner_text() for row in page.locator("#steps tbody tr").all()]
        assert len(rows) == len(result["workflow"]["steps"]) == 5
        assert rows[0].split("\t")[:2] == ["request 1", "call 0"] and "GET /projects" in rows[0]
        assert sum(row.split("\t")[1] == "extra" for row in rows) == 2
        state = page.locator("#end-state").inner_text()
        assert "damage" in state and "<img src=x onerror=" in state  # the stored markup, shown as text
        assert page.locator("#end-state img, #steps img").count() == 0
        assert page.evaluate("document.body.dataset.pwned") is None
        shown.check_inert()
