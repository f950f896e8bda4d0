"""Fixtures for the fetch_js adapter's tests: one adapter (real Node, the real sandbox); the datasets
and ``run_one`` come from the repository's conftest."""

from __future__ import annotations

import pytest

from support import skip_without_node


@pytest.fixture(scope="session")
def adapter():
    """One adapter for the whole session: its Node workers start once."""
    skip_without_node()
    from wapii_fetch_js.adapter import FetchAdapter

    with FetchAdapter(timeout_s=1.0) as instance:
        yield instance
