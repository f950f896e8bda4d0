"""Fixtures for the okhttp_java adapter's tests: the datasets and one adapter (a real JDK, the real sandbox)."""

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
    """One adapter for the whole session: its workers start once (skips without a JDK or OkHttp)."""
    from wapii_core.api import find_jdk
    from wapii_core.base.errors import WapiiError
    from wapii_okhttp_java.adapter import OkHttpAdapter, okhttp_jars

    try:
        find_jdk()
        okhttp_jars()
    except WapiiError as exc:
        pytest.skip(str(exc))
    instance = OkHttpAdapter()
    yield instance
    instance.close()
