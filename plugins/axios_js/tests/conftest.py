"""Fixtures for the axios_js adapter's tests: the shared reference data and one adapter (real Node)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from wapii_core.base.model import Sample

REPO = Path(__file__).resolve().parents[3]


def shared_dir() -> Path:
    """The read-only reference data: ``$WAPII_SHARED``, else ``<repo>/../shared``."""
    return Path(os.environ.get("WAPII_SHARED") or REPO.parent / "shared")


@pytest.fixture(scope="session")
def shared() -> Path:
    path = shared_dir()
    if not (path / "wapiibench" / "dataset.json").is_file():
        pytest.skip(f"reference data not found at {path} (set WAPII_SHARED)")
    return path


@pytest.fixture(scope="session")
def samples(shared: Path) -> list[Sample]:
    return [Sample(**item) for item in json.loads((shared / "wapiibench" / "dataset.json").read_text())]


@pytest.fixture(scope="session")
def adapter():
    """One adapter for the whole session: its Node workers start once."""
    if not (os.environ.get("WAPII_NODE") or shutil.which("node")):
        pytest.skip("Node.js is not installed")
    from wapii_axios_js.adapter import AxiosAdapter

    with AxiosAdapter(timeout_s=1.0) as instance:
        yield instance


@pytest.fixture
def run_one(adapter):
    """Executes one extracted call and returns its Capture."""

    def run(call: str):
        (capture,) = adapter.execute([call])
        return capture

    return run
