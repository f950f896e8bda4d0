"""`wapii datasets fetch wapiibench-context` against a real HTTP server on 127.0.0.1.

The server serves a mirror built in ``tmp_path`` at test time from the reference copy
(``../shared/wapiibench-context``, 12 of the 28 upstream tasks and 5 of the 11 specs) under the upstream
paths. The whole upstream set is not there, so a download with the real manifest is refused (its
dataset.json is not the pinned 28-task file); the mechanics (pins checked, other digests recorded on the
first download and checked on later ones, tampering refused, nothing half-written) are shown with the
real manifest restricted to the files the copy holds.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import pytest

from support import SHARED, run_cli_in_process, sha256_of
from wapii_core.base.errors import WapiiError
from wapii_core.datasets.fetch import RECORDED_FILE
from wapii_core.datasets.fetch_context import (CONTEXT_APIS, CONTEXT_COMMIT, CONTEXT_FILES, fetch_wapiibench_context,
                                               load_wapiibench_context)

CONTEXT = SHARED / "wapiibench-context"
pytestmark = pytest.mark.skipif(not (CONTEXT / "dataset.json").is_file(), reason=f"needs {CONTEXT} (set WAPII_SHARED)")

LOCAL_TO_UPSTREAM = {  # the table of the reference copy's README, written out independently of the module under test
    "dataset.json": "validation_data/all/validation_data_final.json",
    "specs/": "openapi/real_world_specs/",
    "prompts/": "resources/",
}
PREFIX = f"Redocly/WAPIIBench/{CONTEXT_COMMIT}"
UPSTREAM_DATASET_SHA256 = "e42c02ec08a6ad88e41e437d48aabcc1f7fbff77a1eb32fa16886a69deb6acf3"


def tree(directory: Path) -> dict[str, str]:
    return {str(p.relative_to(directory)): sha256_of(p) for p in sorted(directory.rglob("*")) if p.is_file()}


def upstream_path(local: str) -> str:
    return next(up + local[len(loc):] for loc, up in LOCAL_TO_UPSTREAM.items() if local.startswith(loc))


class Quiet(SimpleHTTPRequestHandler):
    served: list[str]

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self.served.append(self.path)
        super().do_GET()


@pytest.fixture
def mirror(tmp_path: Path) -> Iterator[tuple[str, Path, list[str]]]:
    """(base URL, the mirror's repository root, the paths served): a copy of the reference files under
    their upstream paths, made now in ``tmp_path``."""
    root = tmp_path / "mirror" / PREFIX
    for path in CONTEXT.rglob("*"):
        local = str(path.relative_to(CONTEXT))
        if path.is_file() and local not in ("README.md", "apis.json"):
            dest = root / upstream_path(local)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
    served: list[str] = []
    handler = partial(type("Served", (Quiet,), {"served": served}), directory=str(tmp_path / "mirror"))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/{PREFIX}", root, served
    finally:
        server.shutdown()
        server.server_close()


def held_here() -> tuple:
    """The real manifest restricted to the files the reference copy holds; its dataset.json (12 tasks,
    not the pinned upstream file) unpinned, so recorded like any file upstream publishes no digest for."""
    held = {str(p.relative_to(CONTEXT)) for p in CONTEXT.rglob("*") if p.is_file()}
    return tuple(dataclasses.replace(f, sha256=None) if f.local == "dataset.json" else f
                 for f in CONTEXT_FILES if f.local in held)


def tamper(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[200] ^= 1
    path.chmod(0o644)
    path.write_bytes(bytes(data))


def test_the_manifest_pins_what_the_readme_gives_and_names_every_api() -> None:
    readme = (CONTEXT / "README.md").read_text()
    pinned = {f.local: f.sha256 for f in CONTEXT_FILES if f.sha256}
    assert pinned == {"dataset.json": UPSTREAM_DATASET_SHA256,
                      **{f"specs/{api}.yaml": pinned[f"specs/{api}.yaml"]
                         for api in ("frankerfacez_v1", "instagram", "jsonplaceholder", "zephyr_cloud_v2")}}
    for local, digest in pinned.items():
        assert digest in readme, local
        if local != "dataset.json":
            assert sha256_of(CONTEXT / local) == digest, local
    assert len(CONTEXT_APIS) == 11 and {f"specs/{api}.yaml" for api in CONTEXT_APIS} <= {f.local for f in CONTEXT_FILES}
    held = {str(p.relative_to(CONTEXT)) for p in CONTEXT.rglob("*") if p.is_file()} - {"README.md", "apis.json"}
    assert held <= {f.local for f in CONTEXT_FILES}
    assert {s["api"] for s in json.loads((CONTEXT / "dataset.json").read_text())} <= set(CONTEXT_APIS)


def test_the_whole_upstream_set_is_not_here_so_the_real_manifest_is_refused(tmp_path: Path, mirror) -> None:
    base_url, _, _ = mirror
    target = tmp_path / "data" / "wapiibench-context"
    with pytest.raises(WapiiError) as info:
        fetch_wapiibench_context(target, base_url, progress=False)
    message = str(info.value)
    assert message.startswith("dataset.json: sha256 mismatch (expected " + UPSTREAM_DATASET_SHA256)
    assert "\n" not in message and "not created" in message
    assert not target.exists() and list(target.parent.iterdir()) == []


@pytest.mark.parametrize("progress", [False, True])
def test_a_first_download_verifies_the_pins_records_the_rest_and_loads(tmp_path: Path, mirror, capsys,
                                                                         progress: bool) -> None:
    base_url, root, served = mirror
    target = tmp_path / "data" / "wapiibench-context"
    files = held_here()
    assert fetch_wapiibench_context(target, base_url, progress=progress, files=files) == target
    assert len(served) == len(files)
    recorded = json.loads((target / RECORDED_FILE).read_text())["files"]
    unpinned = {"dataset.json", "specs/etherscan_v1.yaml", "prompts/code_generation_with_context_prompt.md"}
    assert recorded == {local: sha256_of(CONTEXT / local) for local in unpinned}
    assert tree(target) == {**{name: d for name, d in tree(CONTEXT).items() if name not in ("README.md", "apis.json")},
                            RECORDED_FILE: sha256_of(target / RECORDED_FILE)}
    said = capsys.readouterr().err
    assert "upstream publishes no sha256 for 3 file(s)" in said and str(target / RECORDED_FILE) in said
    assert all(local in said for local in unpinned)
    ds = load_wapiibench_context(target)
    assert len(ds.samples) == 12 and ds.name == "wapiibench-context"
    assert [p.name for p in target.parent.iterdir()] == ["wapiibench-context"]  # no staging left behind

    served.clear()  # a second fetch: complete, every digest holds, nothing downloaded, nothing recorded anew
    fetch_wapiibench_context(target, base_url, progress=False, files=files)
    assert served == [] and "already complete" in capsys.readouterr().err


@pytest.mark.parametrize("local", ["specs/instagram.yaml", "specs/zephyr_cloud_v2.yaml"])
def test_a_tampered_pinned_file_is_refused_in_one_line_naming_it(tmp_path: Path, mirror, local: str) -> None:
    base_url, root, _ = mirror
    tamper(root / upstream_path(local))
    target = tmp_path / "wapiibench-context"
    with pytest.raises(WapiiError) as info:
        fetch_wapiibench_context(target, base_url, progress=False, files=held_here())
    message = str(info.value)
    assert message.startswith(f"{local}: sha256 mismatch (expected {sha256_of(CONTEXT / local)}, got ")
    assert "\n" not in message and not target.exists()


@pytest.mark.parametrize("local", ["specs/etherscan_v1.yaml", "dataset.json"])
def test_a_later_download_that_differs_from_the_recorded_digest_is_refused(tmp_path: Path, mirror, local: str) -> None:
    base_url, root, _ = mirror
    target = tmp_path / "wapiibench-context"
    fetch_wapiibench_context(target, base_url, progress=False, files=held_here())
    before = tree(target)
    tamper(root / upstream_path(local))
    with pytest.raises(WapiiError) as info:
        fetch_wapiibench_context(target, base_url, progress=False, files=held_here(), force=True)
    message = str(info.value)
    assert message.startswith(f"{local}: sha256 mismatch (expected {sha256_of(CONTEXT / local)}, recorded on its "
                              f"first download in {target / RECORDED_FILE}; got ")
    assert "\n" not in message and "left unchanged" in message
    assert tree(target) == before


def test_a_broken_record_is_one_line_naming_it(tmp_path: Path, mirror) -> None:
    base_url, _, _ = mirror
    target = tmp_path / "wapiibench-context"
    target.mkdir()
    (target / RECORDED_FILE).write_text("[1, 2]")
    with pytest.raises(WapiiError) as info:
        fetch_wapiibench_context(target, base_url, progress=False, files=held_here())
    assert str(info.value).startswith(f"{target / RECORDED_FILE}: not the record of a previous download")
    assert "\n" not in str(info.value)


def test_the_cli_refuses_the_mismatch_in_one_line_with_exit_code_2(tmp_path: Path, mirror) -> None:
    base_url, _, _ = mirror
    target = tmp_path / "wapiibench-context"
    done = run_cli_in_process("datasets", "fetch", "wapiibench-context", "--data-dir", str(target),
                              "--base-url", base_url)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: dataset.json: sha256 mismatch") and not target.exists()


def test_the_registered_dataset_loads_the_reference_copy_and_says_how_to_fetch_it(tmp_path: Path) -> None:
    done = run_cli_in_process("datasets", "show", "wapiibench-context", "--data-dir", str(CONTEXT))
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["name"] == "wapiibench-context" and sum(a["samples"] for a in shown["apis"].values()) == 12
    with pytest.raises(WapiiError) as info:
        load_wapiibench_context(tmp_path / "nothing")
    assert "not found" in str(info.value) and "wapii datasets fetch wapiibench-context" in str(info.value)
