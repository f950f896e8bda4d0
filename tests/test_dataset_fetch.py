"""`wapii datasets fetch wapiibench` against a real HTTP server on 127.0.0.1 serving ../shared/wapiibench."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import pytest

from support import WAPIIBENCH, sha256_of
from wapii_core.datasets.fetch import WAPIIBENCH_COMMIT, fetch_wapiibench
from wapii_core.datasets.loader import load_wapiibench
from wapii_core.base.errors import WapiiError


def tree(directory: Path) -> dict[str, str]:
    """Every file under ``directory`` with its sha256 (to see that nothing changed)."""
    return {str(p.relative_to(directory)): sha256_of(p) for p in sorted(directory.rglob("*")) if p.is_file()}


UPSTREAM_TO_LOCAL = [  # the table of the benchmark's README (shared/wapiibench), written out independently of the module under test
    ("data/synthetic/all/test_data_final.json", "dataset.json"),
    ("openapi/real_world_specs/", "specs/"),
    ("resources/", "prompts/"),
    ("LICENSE", "LICENSE"),
    ("data/test/method_as_function/", "grammar-cases/method_as_function/"),
    ("openapi/test/petstore-expanded-modified.yaml", "grammar-cases/petstore-expanded-modified.yaml"),
]
PREFIX = f"/stg-tud/WAPIIBench/{WAPIIBENCH_COMMIT}/"


class Mirror(BaseHTTPRequestHandler):
    """Serves the shared WAPIIBench copy under its upstream paths; ``faults`` breaks chosen files."""

    faults: dict[str, str] = {}  # upstream path -> "corrupt" | "404" | "drop"
    served: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        upstream = self.path.removeprefix(PREFIX)
        local = next((loc + upstream[len(up):] for up, loc in UPSTREAM_TO_LOCAL if upstream.startswith(up)), None)
        fault = self.faults.get(upstream)
        if local is None or not (WAPIIBENCH / local).is_file() or fault == "404":
            self.send_error(404)
            return
        self.served.append(upstream)
        body = (WAPIIBENCH / local).read_bytes()
        if fault == "corrupt":
            body = body[:100] + bytes([body[100] ^ 1]) + body[101:]
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[: len(body) // 2] if fault == "drop" else body)
        self.close_connection = True

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def mirror() -> Iterator[tuple[str, type[Mirror]]]:
    handler = type("MirrorForTest", (Mirror,), {"faults": {}, "served": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{PREFIX}", handler
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("progress", [False, True])
def test_fetch_downloads_verifies_and_the_result_loads(tmp_path: Path, mirror: tuple[str, type[Mirror]],
                                                       progress: bool) -> None:
    base_url, handler = mirror
    target = tmp_path / "data" / "wapiibench"
    assert fetch_wapiibench(target, base_url, progress=progress) == target
    assert "data/synthetic/all/test_data_final.json" in handler.served
    assert tree(target) == {name: digest for name, digest in tree(WAPIIBENCH).items() if name != "README.md"}
    assert len(list((target / "grammar-cases/method_as_function/positive").glob("*.js"))) == 46
    ds = load_wapiibench(target)
    assert len(ds.samples) == 395 and ds.sha256 == "09c778d61f2bf791b1f9bb1572e2a35c5784abcac7fc4382b1d6e30b0e6ef507"
    assert [p.name for p in target.parent.iterdir()] == ["wapiibench"]  # no staging left behind


def test_fetch_replaces_a_previous_copy(tmp_path: Path, mirror: tuple[str, type[Mirror]]) -> None:
    base_url, _ = mirror
    target = tmp_path / "wapiibench"
    target.mkdir()
    (target / "stale.txt").write_text("from an older download")
    fetch_wapiibench(target, base_url, progress=False)
    assert not (target / "stale.txt").exists()
    assert len(load_wapiibench(target).samples) == 395
    assert [p.name for p in tmp_path.iterdir()] == ["wapiibench"]


FAULTS = [
    ("corrupt", "data/synthetic/all/test_data_final.json", "dataset.json", "sha256 mismatch"),
    ("corrupt", "openapi/real_world_specs/slack.yaml", "specs/slack.yaml", "sha256 mismatch"),
    ("404", "openapi/real_world_specs/asana.yaml", "specs/asana.yaml", "HTTP 404"),
    ("404", "data/test/method_as_function/negative/9504.js",
     "grammar-cases/method_as_function/negative/9504.js", "HTTP 404"),
    ("drop", "data/synthetic/all/test_data_final.json", "dataset.json", "interrupted"),
    ("drop", "resources/template.json", "prompts/template.json", "interrupted"),
]


@pytest.mark.parametrize("previous", [False, True], ids=["fresh", "over-previous-copy"])
@pytest.mark.parametrize("fault, upstream, local, problem", FAULTS)
def test_failed_fetch_leaves_the_target_untouched(tmp_path: Path, mirror: tuple[str, type[Mirror]], fault: str,
                                                  upstream: str, local: str, problem: str, previous: bool) -> None:
    base_url, handler = mirror
    target = tmp_path / "wapiibench"
    if previous:
        target.mkdir()
        (target / "dataset.json").write_text("[]")
        (target / "specs").mkdir()
        (target / "specs" / "asana.yaml").write_text("openapi: 3.0.0\n")
        before = tree(target)
    handler.faults[upstream] = fault
    with pytest.raises(WapiiError) as info:
        fetch_wapiibench(target, base_url, progress=False)
    message = str(info.value)
    assert message.startswith(f"{local}: ") and problem in message and "\n" not in message
    if fault == "corrupt":
        assert "sha256" in message and "expected " in message and ", got " in message
    if previous:
        assert tree(target) == before
        assert "left unchanged" in message
    else:
        assert not target.exists()
        assert "not created" in message
    assert [p.name for p in tmp_path.iterdir()] == (["wapiibench"] if previous else [])


def test_fetch_reports_an_unreachable_server(tmp_path: Path) -> None:
    with pytest.raises(WapiiError) as info:
        fetch_wapiibench(tmp_path / "wapiibench", "http://127.0.0.1:9", progress=False, timeout=5)
    assert str(info.value).startswith("dataset.json: download failed")
    assert not (tmp_path / "wapiibench").exists()


def test_an_unreachable_server_suggests_data_dir(tmp_path: Path) -> None:
    with pytest.raises(WapiiError) as info:
        fetch_wapiibench(tmp_path / "wapiibench", "http://127.0.0.1:9", progress=False, timeout=5)
    assert "offline? copy the data from a machine that has it and pass --data-dir DIR" in str(info.value)
