"""``wapii view`` over a folder of runs and over a run still being written, in Debian's Chromium
(Playwright), at 1280 and 390 px: the run list filters, sorts and opens a subset side by side; the
task view lists exactly the tasks whose verdict changed (three runs built to differ on known
samples); a sample page puts the runs side by side first, with each run's program; the sample list
sorts by a column; a filtered link lands on the filtered list; a run being written is shown partial
with its pending samples, and the page reloads itself when the served data grows. Screenshots go
to ``build/view-runs-*.png``."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import pytest

from browser_page import Page
from support import REPO, run_cli

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright = pytest.importorskip("playwright.sync_api", reason="needs Playwright (pip install -e '.[test]')")
pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (apt-get install -y chromium)"),
              pytest.mark.slow]

REPLAY = {  # program edits: replay breaks 0, 1, 3, 5
    "larchwood/0": ("limit: 10", "limit: '50', colour: 'red'"),
    "larchwood/1": (", offset: 20", ""),
    "larchwood/3": ("/v2/books/bk_20931", "/v2/bookz/bk_20931"),
    "larchwood/5": ("axios.delete(", "axios.delete(("),
}
REPLAY2 = {  # replay2 breaks 0 as replay does, and 6
    "larchwood/0": REPLAY["larchwood/0"],
    "larchwood/6": ("/copies", "/copiez"),
}
SHOTS = REPO / "build"


def _replay(oracle: Path, edits: dict[str, tuple[str, str]], programs: Path, out: Path) -> None:
    lines = []
    for line in (oracle / "generations.jsonl").read_text().splitlines():
        generation = json.loads(line)
        old, new = edits.get(generation["sample"], ("", ""))
        assert old in generation["code"]
        lines.append(json.dumps({"sample": generation["sample"], "code": generation["code"].replace(old, new, 1)}))
    programs.write_text("\n".join(lines) + "\n")
    done = run_cli("run", "--backend", "replay", "-g", str(programs), "--limit", "8", "--out", str(out), "-q")
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, dict[str, str]]]:
    """A bundle of ``runs/`` (oracle, replay, replay2 below it) and each run's verdict per task."""
    root = tmp_path_factory.mktemp("runs")
    runs = root / "runs"
    done = run_cli("run", "--limit", "8", "--out", str(runs / "oracle"), "-q")
    assert done.returncode == 0, done.stderr
    _replay(runs / "oracle", REPLAY, root / "replay.jsonl", runs / "replay")
    _replay(runs / "oracle", REPLAY2, root / "replay2.jsonl", runs / "nested" / "replay2")
    done = run_cli("view", str(runs), "--bundle", str(root / "bundle"), "--no-open", "-q")
    assert done.returncode == 0, done.stderr
    verdicts = {}
    for run, path in (("oracle", "oracle"), ("replay", "replay"), ("replay2", "nested/replay2")):
        verdicts[run] = {json.loads(line)["sample"]: json.loads(line)["verdict"]
                         for line in (runs / path / "results.jsonl").read_text().splitlines()}
    return root / "bundle", verdicts


def _tasks(page) -> list[str]:
    return page.eval_on_selector_all("#tasks tbody tr", "rows => rows.map(r => r.dataset.task)")


@pytest.mark.parametrize("width", [1280, 390])
def test_a_folder_of_runs_lists_them_and_shows_what_changed(folder, width: int) -> None:
    site, verdicts = folder
    SHOTS.mkdir(exist_ok=True)
    changed_all = sorted(t for t in verdicts["oracle"] if len({v[t] for v in verdicts.values()}) > 1)
    assert changed_all == ["larchwood/0", "larchwood/1", "larchwood/3", "larchwood/5", "larchwood/6"]
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            p = Page(browser, site, width)
            page = p.page
            p.open()
            page.wait_for_selector("body[data-listed]")
            assert page.get_attribute("body", "data-runs-listed") == "3"
            names = page.eval_on_selector_all("#runs tbody tr td:nth-child(2)", "c => c.map(x => x.innerText)")
            assert names == ["replay2", "oracle", "replay"], names  # found below runs/, in path order
            page.screenshot(path=str(SHOTS / f"view-runs-{width}-list.png"), full_page=True)

            page.fill("#run-q", "replay")  # filter the run list
            page.wait_for_function("document.body.dataset.runsListed === '2'")
            page.fill("#run-q", "")
            page.wait_for_function("document.body.dataset.runsListed === '3'")
            page.click("#runs th[data-sort=correct]")  # sort by correct implementations, lowest first
            order = page.eval_on_selector_all("#runs tbody tr", "rows => rows.map(r => r.cells[1].innerText)")
            assert order == ["replay", "replay2", "oracle"], order
            page.click("#runs th[data-sort=correct]")
            order = page.eval_on_selector_all("#runs tbody tr", "rows => rows.map(r => r.cells[1].innerText)")
            assert order == ["oracle", "replay2", "replay"], order

            for name in ("replay", "replay2"):  # tick two runs and open them side by side
                page.locator(f"#runs tbody tr[data-name='{name}'] input[type=checkbox]").check()
            page.click("#open-runs")
            page.wait_for_function("document.body.dataset.listed === '16'")
            assert "sel=" in page.url
            page.click("text=tasks across these runs")
            page.wait_for_selector("body[data-tasks]")
            page.select_option("select[name=show]", "changed")
            page.wait_for_function("location.hash.includes('show=changed')")
            page.wait_for_selector("#tasks")
            assert _tasks(page) == sorted(t for t in changed_all if verdicts["replay"][t] != verdicts["replay2"][t])
            page.screenshot(path=str(SHOTS / f"view-runs-{width}-changed.png"), full_page=True)

            p.open("#tasks?show=changed")  # every run
            page.wait_for_selector("body[data-tasks]")
            assert _tasks(page) == changed_all
            oracle = page.eval_on_selector_all("#tasks thead th", "h => h.map(x => x.innerText)").index("oracle") - 1
            replay2 = page.eval_on_selector_all("#tasks thead th", "h => h.map(x => x.innerText)").index("replay2") - 1
            p.open(f"#tasks?show=ab&a={oracle}&b={replay2}")  # correct in A, not in B
            page.wait_for_function("location.hash.includes('show=ab')")
            page.wait_for_selector("#tasks")
            assert _tasks(page) == [t for t in sorted(verdicts["oracle"]) if verdicts["oracle"][t] == "correct"
                                    and verdicts["replay2"][t] != "correct"] == ["larchwood/0", "larchwood/6"]

            p.open("#tasks?show=changed")
            page.wait_for_selector("body[data-tasks]")
            row = page.locator("#tasks tbody tr[data-task='larchwood/5']")
            column = page.eval_on_selector_all("#tasks thead th", "h => h.map(x => x.innerText)").index("replay")
            row.locator("td").nth(column).locator("a").click()  # the replay's sample that did not run
            page.wait_for_selector("body[data-sample]")
            across = page.locator("#across .card")
            assert across.count() == 3
            assert page.locator("#across-section").bounding_box()["y"] < page.locator("#task").bounding_box()["y"]
            card = page.locator("#across .card.here")
            assert "nonexecutable" in card.inner_text()
            assert "axios.delete((" in card.locator("details.program").inner_text()  # its program, nothing captured
            folded = page.locator("#across .card:not(.here) details.program").first
            assert not folded.evaluate("d => d.open")  # captured: the program folded, drawn when unfolded
            folded.locator("summary").click()
            assert "axios.delete('" in folded.locator("pre").inner_text()
            page.screenshot(path=str(SHOTS / f"view-runs-{width}-sample.png"), full_page=True)

            p.open("#verdict=illegal")  # a filtered link lands on the filtered list
            illegal = sum(v == "illegal" for run in verdicts.values() for v in run.values())
            page.wait_for_function(f"document.body.dataset.listed === '{illegal}'")
            top = page.locator("#samples").bounding_box()["y"] - page.evaluate("window.scrollY")
            assert 0 <= top < 900, top
            p.open("#sort=-verdict")
            page.wait_for_selector("body[data-listed]")
            first = page.locator("#contentArea .srow").first.inner_text()
            assert "wrong" in first, first
            page.click(".shead [data-sort=verdict]")  # -verdict -> verdict
            page.wait_for_function("location.hash.includes('sort=verdict')")
            assert "correct" in page.locator("#contentArea .srow").first.inner_text()
            p.check()
        finally:
            browser.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_a_run_being_written_is_partial_and_the_page_follows_it(tmp_path: Path, width: int) -> None:
    from wapii_core.store.lock import RunLock
    from wapii_core.view.bundle import write_bundle
    from wapii_core.view.serve import refresh_while_written

    done = run_cli("run", "--limit", "8", "--out", str(tmp_path / "oracle"), "-q")
    assert done.returncode == 0, done.stderr
    run = tmp_path / "running"
    run.mkdir()
    shutil.copy(tmp_path / "oracle" / "run.json", run / "run.json")
    generations = (tmp_path / "oracle" / "generations.jsonl").read_text().splitlines(True)
    results = (tmp_path / "oracle" / "results.jsonl").read_text().splitlines(True)
    (run / "generations.jsonl").write_text("".join(generations[:5]))
    (run / "results.jsonl").write_text("".join(results[:3]) + results[3][:30])  # a line being written
    site = tmp_path / "site"
    SHOTS.mkdir(exist_ok=True)
    with RunLock(run), playwright.sync_playwright() as driver:
        write_bundle([run], site)
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        stop = threading.Event()
        try:
            p = Page(browser, site, width)
            page = p.page
            p.open()
            page.wait_for_function("document.body.dataset.listed === '5'")
            banner = page.locator(".partial").inner_text()
            assert "running" in banner and "5 of 8 samples generated, 3 judged, 2 pending" in banner, banner
            assert page.locator("#contentArea .srow", has_text="pending").count() == 2
            assert page.locator("#contentArea .srow", has_text="correct").count() == 3
            page.screenshot(path=str(SHOTS / f"view-runs-{width}-live.png"), full_page=True)
            (run / "generations.jsonl").write_text("".join(generations))  # the writer goes on
            (run / "results.jsonl").write_text("".join(results[:6]))
            refresher = threading.Thread(target=refresh_while_written, args=([run], site, stop, 0.2))
            refresher.start()
            page.wait_for_function("document.body.dataset.listed === '8' && document.querySelectorAll("
                                   "'#contentArea .srow .v-pending').length === 2", timeout=30_000)
            assert "6 judged, 2 pending" in page.locator(".partial").inner_text()
            p.problems = [x for x in p.problems if "stamp.js" not in x]  # a poll between two writes of the data
            p.check()
        finally:
            stop.set()
            browser.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_a_wire_mode_sample_judged_correct_shows_no_difference(tmp_path: Path, width: int) -> None:
    done = run_cli("run", "--adapter", "requests_py", "--mode", "wire", "--limit", "1", "--out", str(tmp_path / "run"), "-q")
    assert done.returncode == 0, done.stderr
    result = json.loads((tmp_path / "run" / "results.jsonl").read_text())
    assert result["verdict"] == "correct" and "sent_params" in result["request"]  # "true" sent for true
    done = run_cli("view", str(tmp_path / "run"), "--bundle", str(tmp_path / "site"), "--no-open", "-q")
    assert done.returncode == 0, done.stderr
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            p = Page(browser, tmp_path / "site", width)
            p.open("#s/0/0")
            p.page.wait_for_selector("body[data-sample]")
            assert p.page.locator("#diff .add, #diff .del").count() == 0, p.page.locator("#diff").inner_text()
            assert '"available": "true"' in p.page.locator("#diff").inner_text()  # as the judge compared it
            p.check()
        finally:
            browser.close()
