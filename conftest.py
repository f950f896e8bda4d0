"""Fixtures for every test, core and plugins alike: an isolated per-session cache directory."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    """A cache dir per test session (``WAPII_TEST_CACHE_DIR`` reuses one, e.g. to keep npm installs)."""
    cache = tmp_path_factory.getbasetemp() / "cache"
    monkeypatch.setenv("WAPII_CACHE_DIR", os.environ.get("WAPII_TEST_CACHE_DIR", str(cache)))
