"""Fixtures for the nethttp_go adapter's tests: one adapter (the real Go toolchain, the real sandbox);
the datasets come from the repository's conftest."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def adapter():
    """One adapter for the whole session: its workers start once."""
    from wapii_nethttp_go.adapter import NetHttpGoAdapter

    made = NetHttpGoAdapter()
    made.setup()
    yield made
    made.close()
