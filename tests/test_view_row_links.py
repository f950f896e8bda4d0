"""Each paper row of the viewer's report links to the samples it counts: on a real run with every kind of
verdict and error (the replay of the conformance corpus_a), the viewer's own filter code
(``assets/filter.js``, run by Node over the bundle's data files) selects, for every row and scope, exactly
the samples whose numerator (:mod:`wapii_core.judge.rows`) is positive. A click on "Incomplete
implementations" in Chromium lists that many samples; a forged filter value, in the URL or in a run
file, selects nothing it does not name."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from browser_page import CHROMIUM, listed_page
from support import REPO, run_cli_in_process, shared_path, skip_without_node

from wapii_core.base.model import SampleResult
from wapii_core.judge.compare import sample_counts
from wapii_core.judge.rows import INCOMPLETE_ERRORS, PAPER_ROWS, ROWS_BY_NAME, Judged

FILTER_JS = REPO / "wapii_core" / "view" / "assets" / "filter.js"

SELECT = """
const fs = require("fs"), vm = require("vm");
const store = {};
const sandbox = { wapii: { put: (k, v) => { store[k] = v; } } };
const site = process.argv[2];
const read = (p) => vm.runInNewContext(fs.readFileSync(site + "/" + p, "utf8"), sandbox);
read("data/meta.js");
const meta = store.meta;
const index = meta.runs.map((_, r) => { read(`data/r${r}/index.js`); return store["index/" + r]; });
const filter = require(process.argv[1]);
const ctx = filter.context(meta);
const out = {};
const keys = (f) => Array.from(filter.select(meta, index, [+f.run], f, ctx), (k) => {
  const r = Math.floor(k / filter.RUN_SHIFT), i = k % filter.RUN_SHIFT;
  return meta.tasks.ids[index[r].t[i]] + "#" + index[r].d[i];
});
meta.rows.forEach((row) => {
  if (!row.filter) return;
  // the link as the page writes it, read back as the page reads it
  const href = filter.query({ ...row.filter, run: "0" });
  out[row.name] = { href, keys: keys(filter.parse(href)) };
});
const extra = JSON.parse(process.argv[3] || "[]");
out["#extra"] = extra.map((q) => keys({ ...filter.parse(q), run: "0" }));
process.stdout.write(JSON.stringify(out));
"""


def select(site: Path, queries: list[str] = ()) -> dict:
    """Run the viewer's filter code in Node over the bundle: each report row's link -> the samples it opens
    (``sample#draw``), and under ``"#extra"`` the samples each of ``queries`` opens."""
    done = subprocess.run(["node", "-e", SELECT, str(FILTER_JS), str(site), json.dumps(list(queries))],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def corpus_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The replay of corpus_a (395 samples: correct, wrong, illegal and non-executable ones, with
    no_request, incomplete_request and runtime_error) and its viewer bundle."""
    skip_without_node()
    corpus, data = shared_path("conformance", "corpus_a"), shared_path("wapiibench")
    root = tmp_path_factory.mktemp("rowlinks")
    done = run_cli_in_process("run", "--dataset", "wapiibench", "--data-dir", str(data), "--backend", "replay",
                              "--generations", str(corpus), "--quiet", "--out", str(root / "run"))
    assert done.returncode == 0, done.stderr
    done = run_cli_in_process("view", str(root / "run"), "--bundle", str(root / "site"), "--no-open", "-q")
    assert done.returncode == 0, done.stderr
    return root / "run", root / "site"


def counted(run: Path) -> dict[str, set[str]]:
    """Row name -> the samples (``sample#draw``) its numerator is positive on, from the run's results."""
    judged = [Judged(r, sample_counts(r)) for r in
              (SampleResult.model_validate_json(line) for line in (run / "results.jsonl").read_text().splitlines())]
    out = {}
    for name, (row, scope) in ROWS_BY_NAME.items():
        numerator = row.numerator if scope is None else row.terms(scope)[0]
        out[name] = {s.result.key for s in judged if numerator(s) > 0}
    return out


@pytest.mark.slow  # a replay of 395 samples and its bundle
def test_every_row_link_opens_the_samples_its_numerator_counts(corpus_run: tuple[Path, Path]) -> None:
    run, site = corpus_run
    links = select(site)
    expected = counted(run)
    summary = json.loads((run / "summary.json").read_text())["overall"]
    assert summary["Incomplete implementations"] == 52  # the run mixes no_request and incomplete_request
    linked = [name for name, (row, _) in ROWS_BY_NAME.items() if row.filter is not None]
    assert set(links) - {"#extra"} == set(linked)
    wrong = {name: (len(links[name]["keys"]), len(expected[name])) for name in linked
             if set(links[name]["keys"]) != expected[name] or len(links[name]["keys"]) != len(expected[name])}
    assert not wrong, f"row: (samples the link opens, samples the row counts): {wrong}"
    for name in ("Total errors", "Incomplete implementations", "Runtime errors"):
        assert len(links[name]["keys"]) == summary[name], name
    assert all(links[name]["keys"] for name in linked if expected[name])  # every row is exercised
    incomplete = links["Incomplete implementations"]["href"]
    assert all(f"error={kind}" in incomplete for kind in INCOMPLETE_ERRORS), incomplete


def test_every_linked_row_is_declared_with_a_filter_on_what_it_counts() -> None:
    rows = {row.stem: row for row in PAPER_ROWS}
    assert rows["Incomplete implementations"].filter == {"error": INCOMPLETE_ERRORS}
    assert rows["Missing arguments"].viewer_filter("e") == {"arguments": ("missing",),
                                                            "verdict": ("correct", "wrong", "illegal")}
    assert rows["Correct implementations"].viewer_filter("e") == {"verdict": ("correct",)}


def test_a_forged_filter_value_in_a_url_selects_nothing(corpus_run: tuple[Path, Path]) -> None:
    _, site = corpus_run
    queries = ["error=no_request", "error=no_request%2Cincomplete_request", "error=no_request%26error%3Dtimeout",
               "error=__proto__", "error=constructor", "verdict=toString", "arguments=__proto__",
               "field=*%3A__proto__", "url=!correct", "error=%E0%A4%A", "arguments=missing&arguments=x%26arguments"]
    found = select(site, queries)["#extra"]
    assert len(found[0]) == 22  # the no_request samples
    assert found[1:-1] == [[]] * (len(queries) - 2)
    missing = set(select(site)["Missing arguments (t)"]["keys"])
    assert set(found[-1]) == missing  # the forged value adds nothing to the list it is in


FORGED = ["x&error=runtime_error", "!runtime_error"]
"""Error kinds a hostile run file may hold: one that reads as a second filter value once percent-decoded
twice, one that reads as a negation."""


@pytest.fixture(scope="module")
def site_with_forged_run(corpus_run: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bundle of the corpus_a replay and a copy of it whose first two runtime errors carry forged kinds."""
    run, _ = corpus_run
    root = tmp_path_factory.mktemp("forged")
    forged = root / "forged"
    shutil.copytree(run, forged)
    lines = [json.loads(line) for line in (forged / "results.jsonl").read_text().splitlines()]
    runtime = [r for r in lines if r.get("error") == "runtime_error"]
    for record, kind in zip(runtime, FORGED):
        record["error"] = kind
    correct = next(r for r in lines if r["verdict"] == "correct" and r.get("arguments"))
    correct["arguments"]["params"] = {"limit": "missing", "x": "__proto__"}  # a verdict no row knows
    (forged / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    done = run_cli_in_process("view", str(run), str(forged), "--bundle", str(root / "site"), "--no-open", "-q")
    assert done.returncode == 0, done.stderr
    return root / "site"




@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (apt-get install -y chromium)")
def test_clicking_incomplete_implementations_lists_the_samples_it_counts(
        corpus_run: tuple[Path, Path], site_with_forged_run: Path) -> None:
    pytest.importorskip("playwright.sync_api", reason="needs Playwright (pip install -e '.[test]')")

    run, _ = corpus_run
    incomplete = json.loads((run / "summary.json").read_text())["overall"]["Incomplete implementations"]
    with listed_page(site_with_forged_run) as view:
        page = view.page
        page.click("details.section > summary")
        row = page.locator("#report tr", has_text="Incomplete implementations")
        assert row.locator("td").nth(1).inner_text() == str(incomplete)
        row.locator("td").nth(1).locator("a").click()  # the first run's value
        page.wait_for_function(f"document.body.dataset.listed === '{incomplete}'")
        assert page.locator("#count").inner_text() == f"{incomplete} sample(s)"
        assert all(f"error={kind}" in page.url for kind in INCOMPLETE_ERRORS), page.url
        kept = page.locator("select[name=error] option[data-keep]")
        assert kept.inner_text() == " or ".join(INCOMPLETE_ERRORS)
        page.select_option("select[name=verdict]", "nonexecutable")  # another facet: the list is kept
        page.wait_for_function(f"document.body.dataset.listed === '{incomplete}'")
        assert all(f"error={kind}" in page.url for kind in INCOMPLETE_ERRORS), page.url
        page.reload()  # the URL alone restores the whole list
        page.wait_for_function(f"document.body.dataset.listed === '{incomplete}'")

        for kind in FORGED:  # the count table's link of a forged kind opens that sample only
            view.open()
            page.wait_for_selector("body[data-listed]")
            page.click("details.section > summary")
            counts = page.locator("#counts tr", has_text=f"Error: {kind}")
            assert counts.count() == 1
            counts.locator("td").nth(2).locator("a").click()  # the forged run's column
            page.wait_for_function("document.body.dataset.listed === '1'")
            page.locator("#contentArea .srow").first.click()
            page.wait_for_selector("body[data-sample]")
            assert page.locator("h2 .error").inner_text() == kind
        view.open(f"#{'error=' + 'x%26error%3Druntime_error'}&run=0")  # a forged URL: run 0 has no such kind
        page.wait_for_function("document.body.dataset.listed === '0'")
        view.check()


def test_a_forged_argument_verdict_in_a_run_file_counts_in_no_argument_row(site_with_forged_run: Path) -> None:
    """The bundle of the forged run is written; the sample whose argument verdicts no row knows (the judge
    would refuse them) is in no argument bucket, so no argument row's link opens it."""
    from wapii_core.view.runs import read_run

    forged = site_with_forged_run.parent / "forged"
    _, _, records = read_run(forged)
    odd = [r for r in records if (r.get("arguments") or {}).get("params", {}).get("x") == "__proto__"]
    assert len(odd) == 1 and odd[0]["argument_buckets"] == []
    stopped = [r for r in records if r["verdict"] == "nonexecutable" and any(r["expected_arguments"].values())]
    assert stopped and all(r["argument_buckets"] == ["missing"] for r in stopped)  # what Missing arguments (t) counts
