"""``wapii view --bundle`` in a real browser: Debian's Chromium driven by Playwright opens a bundle of two
runs from disk, filters the list to ``illegal``, opens a sample and finds the expected and captured
requests and the verdicts with their reasons, at 1280 px and at 390 px, with no console error, no
page exception and no network request (every request that is not a bundle file is recorded and
refused). Screenshots go to ``build/view-*.png``. Skipped without Chromium or Playwright."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from support import REPO, run_cli

from wapii_core.judge.rows import DESCRIPTIONS

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright = pytest.importorskip("playwright.sync_api", reason="needs Playwright (pip install -e '.[test]')")
pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (apt-get install -y chromium)"),
              pytest.mark.slow]

BROKEN = {  # program edits that give the replay run one sample of each kind of failure
    "larchwood/0": ("limit: 10", "limit: '50', colour: 'red'"),  # wrong value, illegal argument
    "larchwood/1": (", offset: 20", ""),  # missing argument
    "larchwood/3": ("/v2/books/bk_20931", "/v2/bookz/bk_20931"),  # illegal URL
    "larchwood/5": ("axios.delete(", "axios.delete(("),  # does not parse
}


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A bundle of an oracle run and a replay of it with broken programs (the demo's first 8 tasks)."""
    root = tmp_path_factory.mktemp("view")
    oracle, replay = root / "oracle", root / "replay"
    done = run_cli("run", "--limit", "8", "--out", str(oracle), "-q")
    assert done.returncode == 0, done.stderr
    programs = []
    for line in (oracle / "generations.jsonl").read_text().splitlines():
        generation = json.loads(line)
        old, new = BROKEN.get(generation["sample"], ("", ""))
        assert old in generation["code"]
        programs.append({"sample": generation["sample"], "code": generation["code"].replace(old, new, 1)})
    (root / "replay.jsonl").write_text("".join(json.dumps(p) + "\n" for p in programs))
    done = run_cli("run", "--backend", "replay", "-g", str(root / "replay.jsonl"), "--limit", "8", "--out",
                   str(replay), "-q")
    assert done.returncode == 0, done.stderr
    done = run_cli("view", str(oracle), str(replay), "--bundle", str(root / "bundle"), "--no-open")
    assert done.returncode == 0, done.stderr
    return root / "bundle", replay


@pytest.mark.parametrize("width", [1280, 390])
def test_bundle_of_two_runs_shows_an_illegal_sample(bundle: tuple[Path, Path], width: int) -> None:
    site, replay = bundle
    results = [json.loads(line) for line in (replay / "results.jsonl").read_text().splitlines()]
    illegal = [r for r in results if r["verdict"] == "illegal"]
    assert [r["sample"] for r in illegal] == ["larchwood/0", "larchwood/3"]
    shots = REPO / "build"
    shots.mkdir(exist_ok=True)
    problems: list[str] = []
    outside: list[str] = []
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": width, "height": 900})
            page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
            page.on("pageerror", lambda e: problems.append(f"exception: {e}"))

            def guard(route: "playwright.Route") -> None:
                if route.request.url.startswith(site.as_uri() + "/"):
                    route.continue_()
                else:
                    outside.append(route.request.url)
                    route.abort()

            page.route("**/*", guard)
            page.goto((site / "index.html").as_uri())
            page.wait_for_selector("body[data-listed]")
            assert page.locator("#count").inner_text() == f"{2 * len(results)} sample(s)"
            report = page.locator("details.section")
            assert not report.evaluate("d => d.open")  # folded below the list: the samples come first
            assert page.locator("#samples").bounding_box()["y"] < report.bounding_box()["y"]
            page.screenshot(path=str(shots / f"view-{width}-front.png"), full_page=True)
            page.click("details.section > summary")
            assert "illegal" in page.locator("#counts").inner_text()

            page.fill("input[name=q]", "okafor")  # a task's text: that task in both runs
            page.wait_for_function("document.body.dataset.listed === '2'")
            page.click("#clear")
            page.wait_for_function(f"document.body.dataset.listed === '{2 * len(results)}'")
            assert report.evaluate("d => d.open")  # opened above: clearing filters keeps it so
            row = page.locator("#report tr", has_text="Illegal implementations (t)")
            assert row.locator("td").first.get_attribute("title") == DESCRIPTIONS["Illegal implementations (t)"]
            row.locator("td").nth(2).locator("a").click()  # the replay run's value: its illegal samples
            page.wait_for_function("document.body.dataset.listed === '2'")
            assert "verdict=illegal" in page.url and "run=1" in page.url
            page.click("#clear")
            page.wait_for_function(f"document.body.dataset.listed === '{2 * len(results)}'")

            page.select_option("select[name=verdict]", "illegal")
            page.wait_for_function("document.body.dataset.listed === '2'")
            assert page.locator("#contentArea .srow").count() == 2
            page.screenshot(path=str(shots / f"view-{width}-illegal.png"), full_page=True)

            page.locator("#contentArea .srow").first.click()
            page.wait_for_selector("body[data-sample]")
            record = illegal[0]
            assert page.locator("#expected").inner_text() == json.dumps(_sorted(record.get("expected_request") or
                                                                                _expected(record)), indent=2)
            captured = page.locator("#captured").inner_text()
            assert '"colour": "red"' in captured and '"limit": "50"' in captured
            diff = page.locator("#diff").inner_text().splitlines()
            assert any(line.startswith("+") and '"colour": "red"' in line for line in diff)
            assert any(line.startswith("-") and '"limit": 10' in line for line in diff)
            verdicts = page.locator("#verdicts").inner_text()
            assert "params.colour\tillegal" in verdicts and "params.limit\tincorrect_value" in verdicts
            for field, reason in (record.get("reasons") or {}).items():
                assert reason in verdicts, field
            assert page.locator("#program mark.call").inner_text() == record["call"].strip()
            if (record.get("timings") or {}).get("execution_s") is not None:
                assert "execution_s" in page.locator("#timings").inner_text()
            across = page.locator("#across .card")
            assert across.count() == 2 and "correct" in across.nth(0).inner_text()
            page.screenshot(path=str(shots / f"view-{width}-sample.png"), full_page=True)
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0, f"the sample page is {overflow}px wider than the window"
        finally:
            browser.close()
    assert not problems, problems
    assert not outside, f"network requests: {outside}"


def _sorted(value):
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value


def _expected(record: dict) -> dict:
    """The dataset's expected request of a result line that does not hold its own."""
    dataset = json.loads((REPO / "wapii_core" / "specs" / "demo" / "dataset.json").read_text())
    api, index = record["sample"].split("/")
    return next(s["config"] for s in dataset if s["api"] == api and s["index"] == int(index))
