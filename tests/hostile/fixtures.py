"""Fixtures shared by the hostile-corpus tests (import them into a test module to use them)."""

from __future__ import annotations

import os
import shutil

import pytest

from hostile.accounts import ensure_user
from hostile.canaries import SECRET_ENV, Canaries


@pytest.fixture(scope="module", autouse=True)
def sandbox_user() -> None:
    """As root, workers drop to ``wapii-sbx``: make sure it exists before any worker starts."""
    if os.geteuid() == 0:
        ensure_user()


@pytest.fixture
def canaries(monkeypatch: pytest.MonkeyPatch):
    """Canaries for one test, with the secret in this process's environment (where workers must not see it)."""
    instance = Canaries().start()
    monkeypatch.setenv(SECRET_ENV, instance.secret)
    yield instance
    instance.stop()
    shutil.rmtree(instance.directory, ignore_errors=True)
