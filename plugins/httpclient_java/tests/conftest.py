"""Fixtures for the httpclient_java adapter's tests: one adapter (a real JDK, the real sandbox); the
datasets come from the repository's conftest."""

from __future__ import annotations

import pytest

from support import skip_without_jdk


@pytest.fixture(scope="session")
def adapter():
    """One adapter for the whole session: its workers start once (skips without a JDK)."""
    skip_without_jdk()
    from wapii_httpclient_java.adapter import HttpClientAdapter

    instance = HttpClientAdapter()
    yield instance
    instance.close()
