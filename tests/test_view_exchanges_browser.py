"""``wapii view --bundle`` in a real browser shows a sample's exchanges in order, inert: a run's result
line that holds the exchanges a responder answered (here written into an oracle run's first result,
with an answer whose body is markup) is listed as a table of requests and answers, and the markup is
shown as text, never run. Skipped without Chromium or Playwright."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from browser_page import CHROMIUM, listed_page
from support import run_cli
from wapii_core.mock.exchange import MockRequest, MockResponse
from wapii_core.sandbox.dialogue import record

pytest.importorskip("playwright.sync_api", reason="needs Playwright (pip install -e '.[test]')")
pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (apt-get install -y chromium)"),
              pytest.mark.slow]

HOSTILE = '<img src=x onerror="document.body.dataset.pwned=1">'


def test_a_sample_s_exchanges_are_shown_in_order_and_inert(tmp_path: Path) -> None:
    run = tmp_path / "run"
    done = run_cli("run", "--limit", "2", "--out", str(run), "-q")
    assert done.returncode == 0, done.stderr
    base = "https://api.example.com/v2"
    exchanges = [
        record(MockRequest("POST", f"{base}/books", (("Content-Type", "application/json"),), b'{"title": "Dune"}'),
               MockResponse(201, (("Content-Type", "application/json"),), b'{"id": "bk_1"}', "created books/bk_1")),
        record(MockRequest("GET", f"{base}/books/bk_1"), MockResponse(404, (), HOSTILE.encode(), "404: " + HOSTILE)),
    ]
    lines = (run / "results.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    first["exchanges"] = [exchange.model_dump(mode="json") for exchange in exchanges]
    (run / "results.jsonl").write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    done = run_cli("view", str(run), "--bundle", str(tmp_path / "bundle"), "--no-open")
    assert done.returncode == 0, done.stderr
    site = tmp_path / "bundle"
    with listed_page(site) as shown:
        page = shown.page
        shown.open_sample(first["sample"])
        rows = page.locator("#exchanges tbody tr")
        assert rows.count() == 2
        assert rows.nth(0).inner_text().startswith(f"1\tPOST {base}/books")
        assert "201 created books/bk_1" in rows.nth(0).inner_text() and '{"id": "bk_1"}' in rows.nth(0).inner_text()
        assert rows.nth(1).inner_text().startswith(f"2\tGET {base}/books/bk_1")
        assert HOSTILE in rows.nth(1).inner_text()  # shown as text
        assert page.locator("#exchanges img").count() == 0
        assert page.evaluate("document.body.dataset.pwned") is None
        shown.check_inert()
