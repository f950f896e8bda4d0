"""Fixtures for the nethttp_go adapter's tests: the datasets and one adapter (the real Go toolchain,
the real sandbox)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from support import shared_path
from wapii_core.base.protocols import Dataset
from wapii_core.run.runner import load_dataset


# Go's build cache is content-addressed: every test session shares the user's (the standard library
# compiled with the capture overlay once, not once per session's fresh wapii cache)
os.environ.setdefault("WAPII_GO_BUILD_CACHE", str(Path(os.environ.get("WAPII_CACHE_DIR") or Path.home() / ".cache"
                                                         / "wapii") / "go" / "build-cache"))


@pytest.fixture(scope="session")
def wapiibench() -> Dataset:
    """WAPIIBench from the shared data (:func:`support.shared_path`; skips without it)."""
    return load_dataset("wapiibench", shared_path("wapiibench", "dataset.json").parent)


@pytest.fixture(scope="session")
def demo() -> Dataset:
    return load_dataset("demo", None)


@pytest.fixture(scope="session")
def adapter():
    """One adapter for the whole session: its workers start once."""
    from wapii_nethttp_go.adapter import NetHttpGoAdapter

    made = NetHttpGoAdapter()
    made.setup()
    yield made
    made.close()
