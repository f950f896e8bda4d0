"""Fixtures for the fetch_js adapter's tests: the datasets and one adapter (real Node, the real sandbox)."""

from __future__ import annotations

import os
import shutil

import pytest

from wapii_core.base.model import Capture
from wapii_core.base.protocols import Dataset
from support import shared_path
from wapii_core.run.runner import load_dataset



@pytest.fixture(scope="session")
def wapiibench() -> Dataset:
    """WAPIIBench from the shared data (:func:`support.shared_path`; skips without it)."""
    return load_dataset("wapiibench", shared_path("wapiibench", "dataset.json").parent)


@pytest.fixture(scope="session")
def demo() -> Dataset:
    return load_dataset("demo", None)


@pytest.fixture(scope="session")
def adapter():
    """One adapter for the whole session: its Node workers start once."""
    if not (os.environ.get("WAPII_NODE") or shutil.which("node")):
        pytest.skip("Node.js is not installed")
    from wapii_fetch_js.adapter import FetchAdapter

    with FetchAdapter(timeout_s=1.0) as instance:
        yield instance


@pytest.fixture
def run_one(adapter):
    """Executes one extracted call and returns its Capture."""

    def run(call: str) -> Capture:
        (capture,) = adapter.execute([call])
        return capture

    return run
