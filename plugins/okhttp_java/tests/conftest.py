"""Fixtures for the okhttp_java adapter's tests: one adapter (a real JDK, the real sandbox); the
datasets come from the repository's conftest."""

from __future__ import annotations

import pytest

from support import skip_without_jdk


@pytest.fixture(scope="session")
def adapter():
    """One adapter for the whole session: its workers start once (skips without a JDK or OkHttp)."""
    from wapii_okhttp_java.adapter import OkHttpAdapter, okhttp_jars

    skip_without_jdk(okhttp_jars)
    instance = OkHttpAdapter()
    yield instance
    instance.close()
