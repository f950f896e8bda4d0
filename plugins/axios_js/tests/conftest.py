"""Fixtures for the axios_js adapter's tests: the shared reference data and one adapter (real Node);
``run_one`` comes from the repository's conftest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import SHARED, shared_path, skip_without_node
from wapii_core.api import Sample


@pytest.fixture(scope="session")
def shared() -> Path:
    """The read-only reference data (:data:`support.SHARED`; skips without WAPIIBench in it)."""
    shared_path("wapiibench", "dataset.json")
    return SHARED


@pytest.fixture(scope="session")
def samples(shared: Path) -> list[Sample]:
    return [Sample(**item) for item in json.loads((shared / "wapiibench" / "dataset.json").read_text())]


@pytest.fixture(scope="session")
def adapter():
    """One adapter for the whole session: its Node workers start once."""
    skip_without_node()
    from wapii_axios_js.adapter import AxiosAdapter

    with AxiosAdapter(timeout_s=1.0) as instance:
        yield instance

