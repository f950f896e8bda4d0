"""``wapii view``: the bundle's files (chunked data, assets in the package), the local server, and bad input
refused in one line with exit code 2."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from support import REPO, run_cli

from wapii_core.view.bundle import CHUNK, write_bundle

pytestmark = pytest.mark.slow  # each test runs the CLI (a run, a bundle, a server): seconds apiece


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("viewcli") / "oracle"
    done = run_cli("run", "--limit", "6", "--out", str(out), "-q")
    assert done.returncode == 0, done.stderr
    return out


def _put(path: Path) -> tuple[str, object]:
    """The key and value of a data file (``wapii.put(KEY,VALUE);``)."""
    return _put_text(path.read_text(encoding="utf-8"))


def test_bundle_holds_an_index_and_every_record_in_chunks(run_dir: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    index = write_bundle([run_dir, run_dir], site)
    assert index == site / "index.html"
    key, meta = _put(site / "data" / "meta.js")
    assert key == "meta" and [r["name"] for r in meta["runs"]] == [f"{run_dir.parent.name}/oracle"] * 2
    assert meta["tasks"]["ids"] == [f"larchwood/{i}" for i in range(6)]
    assert meta["tasks"]["texts"][0].startswith("Search the catalogue")
    key, columns = _put(site / "data" / "r1" / "index.js")
    assert key == "index/1" and columns["t"] == list(range(6))
    assert [meta["vocab"]["verdict"][v] for v in columns["v"]] == ["correct"] * 6
    assert [meta["vocab"]["endpoint"][r] for r in columns["r"]][:2] == ["GET /books", "GET /books"]
    key, records = _put(site / "data" / "r0" / "c0.js")
    assert key == "chunk/0/0" and len(records) == min(6, CHUNK)
    results = [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]
    assert records[0]["expected_request"] == results[0]["expected_request"]
    assert records[0]["request"] == results[0]["request"]
    assert records[0]["prompt"] and records[0]["code"].endswith(records[0]["call"])
    generations = [json.loads(line) for line in (run_dir / "generations.jsonl").read_text().splitlines()]
    assert records[0]["timings"] == results[0]["timings"] and "execution_s" in records[0]["timings"]
    assert records[0]["generation_timings"] == generations[0]["timings"]
    excerpt = meta["excerpts"][f"larchwood {records[0]['expected_endpoint']}"]
    assert '"/books"' in _put(site / "data" / "x" / f"{excerpt}.js")[1]
    html = (site / "index.html").read_text()
    assert not re.search(r'(src|href)="(https?:)?//', html), "the page must not load anything from the network"
    for asset in re.findall(r'(?:src|href)="(assets/[^"]+)"', html):
        assert (site / asset).is_file(), asset


def test_bundle_again_replaces_the_previous_data(run_dir: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    write_bundle([run_dir, run_dir], site)
    (site / "notes.txt").write_text("mine")
    write_bundle([run_dir], site)
    assert not (site / "data" / "r1").exists() and (site / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("problem", ["missing", "not_a_run", "bundle_is_a_file"])
def test_bad_input_is_one_line_and_exit_2(run_dir: Path, tmp_path: Path, problem: str) -> None:
    target, bundle = run_dir, tmp_path / "site"
    if problem == "missing":
        target = tmp_path / "nowhere"
    elif problem == "not_a_run":
        target = tmp_path / "empty"
        target.mkdir()
    else:
        bundle.write_text("a file")
    done = run_cli("view", str(target), "--bundle", str(bundle), "--no-open")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert str(target if problem != "bundle_is_a_file" else bundle) in lines[0]
    assert problem == "bundle_is_a_file" or not bundle.exists()


def test_port_in_use_is_one_line_and_exit_2(run_dir: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_cli("view", str(run_dir), "--port", str(port), "--no-open", timeout=60)
    assert done.returncode == 2
    assert done.stderr == (f"error: port {port} on 127.0.0.1 is in use; give another with --port "
                           "(or 0 for any free one)\n")


def test_server_serves_the_page_and_its_data_on_localhost(run_dir: Path) -> None:
    server = subprocess.Popen([sys.executable, "-m", "wapii_core", "view", str(run_dir), "--no-open"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)
    try:
        line = server.stdout.readline()
        match = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
        assert match, line + server.stderr.read()
        page = urllib.request.urlopen(match[1], timeout=10).read().decode()
        assert "assets/viewer.js" in page
        key, meta = _put_text(urllib.request.urlopen(match[1] + "data/meta.js", timeout=10).read().decode())
        assert key == "meta" and meta["runs"][0]["samples"] == 6
    finally:
        server.terminate()
        server.wait(timeout=10)


def _put_text(text: str) -> tuple[str, object]:
    """The key and value of a data file's text."""
    match = re.fullmatch(r'wapii\.put\(("[^"]*"),(.*)\);\n', text, re.S)
    assert match
    return json.loads(match[1]), json.loads(match[2])


def test_a_run_without_stored_expected_requests_shows_the_datasets(run_dir: Path, tmp_path: Path) -> None:
    old = tmp_path / "old"
    shutil.copytree(run_dir, old)
    lines = [json.loads(line) for line in (old / "results.jsonl").read_text().splitlines()]
    for line in lines:
        line.pop("expected_request")
    (old / "results.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    write_bundle([old], tmp_path / "site")
    _, records = _put(tmp_path / "site" / "data" / "r0" / "c0.js")
    dataset = json.loads((REPO / "wapii_core" / "specs" / "demo" / "dataset.json").read_text())
    assert [r["expected_from"] for r in records] == ["dataset"] * 6
    assert [r["expected_request"] for r in records] == [s["config"] for s in dataset[:6]]


def test_a_folder_stands_for_the_run_directories_below_it(tmp_path: Path) -> None:
    from wapii_core.base.errors import WapiiError
    from wapii_core.view.runs import run_directories

    for name in ("b", "a", "x/c", "x/y/d", "x/y/z/too-deep"):
        (tmp_path / "runs" / name).mkdir(parents=True)
        (tmp_path / "runs" / name / "run.json").write_text("{}")
    (tmp_path / "runs" / "notes").mkdir()
    runs = tmp_path / "runs"
    found = run_directories([runs, runs / "a"])
    assert found == [runs / "a", runs / "b", runs / "x" / "c", runs / "x" / "y" / "d"]  # path order, once each
    assert run_directories([runs / "b"]) == [runs / "b"]
    with pytest.raises(WapiiError, match="no folder below it holds a run.json"):
        run_directories([runs / "notes"])
