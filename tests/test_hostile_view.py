"""``wapii view`` against hostile input: a spec whose operation is an alias bomb or an alias cycle, a
``--bundle`` that names a user's directory, and a request for the local server under another host name
(DNS rebinding)."""

from __future__ import annotations

import http.client
import resource
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from support import REPO, run_cli_in_process

MEMORY = 2 * 2**30
"""Address space the viewer may use on a spec bomb (a billion laughs expanded takes 10 GB and more)."""

BOMB = "      x-bomb:\n        a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"        {name}: &{name} [{', '.join([f'*{prev}'] * 9)}]\n" for prev, name in zip("abcdefgh", "bcdefghi"))
CYCLE = "      x-self: &self\n        again: *self\n        more: [*self]\n"


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


@pytest.fixture(scope="module")
def bomb_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Oracle runs of the demo's first task on its spec with an alias bomb, or an alias cycle, inside the
    task's operation."""
    base = tmp_path_factory.mktemp("bombs")
    runs = {}
    for name, text in {"bomb": BOMB, "cycle": CYCLE}.items():
        dataset = base / f"{name}_api"
        shutil.copytree(REPO / "specs" / "demo", dataset)
        spec = dataset / "specs" / "larchwood.yaml"
        spec.write_text(spec.read_text().replace("      operationId: searchBooks\n",
                                                 "      operationId: searchBooks\n" + text, 1))
        runs[name] = base / name
        done = run_cli_in_process("run", "--dataset-dir", str(dataset), "--limit", "1", "--out", str(runs[name]), "-q")
        assert done.returncode == 0, done.stderr
    return runs


@pytest.mark.slow  # a run and a viewer process each
@pytest.mark.parametrize("kind", ["bomb", "cycle"])
def test_view_of_a_spec_with_an_alias_bomb_or_cycle_is_bounded(bomb_runs: dict[str, Path], tmp_path: Path,
                                                               kind: str) -> None:
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "wapii_core", "view", str(bomb_runs[kind]), "--bundle", str(site),
                           "--no-open", "-q"], capture_output=True, text=True, timeout=60, preexec_fn=_limited)
    assert done.returncode == 0, done.stderr
    excerpt = next((site / "data" / "x").iterdir()).read_text()
    assert len(excerpt) < 25_000 and "operationId" in excerpt
    assert ("cut at 20000 characters" if kind == "bomb" else "refers to itself") in excerpt


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = tmp_path_factory.mktemp("demo") / "run"
    done = run_cli_in_process("run", "--limit", "1", "--out", str(run), "-q")
    assert done.returncode == 0, done.stderr
    return run


def test_bundle_refuses_a_users_directory_and_leaves_it_intact(demo_run: Path, tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    (mine / "data").mkdir(parents=True)
    (mine / "data" / "thesis.tex").write_text("years of work")
    (mine / "index.html").write_text("<p>my page</p>")
    (mine / "assets").mkdir()
    before = sorted((p.relative_to(mine), p.read_bytes() if p.is_file() else None) for p in mine.rglob("*"))
    done = run_cli_in_process("view", str(demo_run), "--bundle", str(mine), "--no-open", "-q")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "not empty and not a viewer bundle" in done.stderr and str(mine) in done.stderr
    assert sorted((p.relative_to(mine), p.read_bytes() if p.is_file() else None) for p in mine.rglob("*")) == before


def test_bundle_writes_over_its_own_bundle(demo_run: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    for _ in range(2):
        done = run_cli_in_process("view", str(demo_run), "--bundle", str(site), "--no-open", "-q")
        assert done.returncode == 0, done.stderr


def test_the_server_refuses_another_host_name(tmp_path: Path) -> None:
    from wapii_core.view.serve import bind

    (tmp_path / "index.html").write_text("<p>the runs</p>")
    server = bind(tmp_path, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = server.server_address[1]
    try:
        answers = {}
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"rebound.attacker.example:{port}",
                     "127.0.0.1", ""):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.putrequest("GET", "/index.html", skip_host=True)
            if host:
                connection.putheader("Host", host)
            connection.endheaders()
            response = connection.getresponse()
            answers[host] = (response.status, response.read())
            connection.close()
    finally:
        server.shutdown()
        server.server_close()
    assert answers[f"127.0.0.1:{port}"] == (200, b"<p>the runs</p>")
    assert answers[f"localhost:{port}"][0] == 200
    for host in (f"rebound.attacker.example:{port}", "127.0.0.1", ""):
        assert answers[host][0] == 403 and b"the runs" not in answers[host][1]
