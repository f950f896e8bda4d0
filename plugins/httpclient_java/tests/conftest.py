"""Fixtures for the httpclient_java adapter's tests: the datasets and one adapter (a real JDK, the real sandbox)."""

from __future__ import annotations

import pytest

from support import shared_path
from wapii_core.base.protocols import Dataset
from wapii_core.run.runner import load_dataset


@pytest.fixture(scope="session")
def wapiibench() -> Dataset:
    return load_dataset("wapiibench", shared_path("wapiibench", "dataset.json").parent)


@pytest.fixture(scope="session")
def demo() -> Dataset:
    return load_dataset("demo", None)


@pytest.fixture(scope="session")
def adapter():
    """One adapter for the whole session: its workers start once (skips without a JDK)."""
    from wapii_core.api import find_jdk
    from wapii_core.base.errors import WapiiError
    from wapii_httpclient_java.adapter import HttpClientAdapter

    try:
        find_jdk()
    except WapiiError as exc:
        pytest.skip(str(exc))
    instance = HttpClientAdapter()
    yield instance
    instance.close()
