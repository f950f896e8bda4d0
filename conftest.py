"""Fixtures for every test, core and plugins alike: an isolated per-session cache directory (Go's
content-addressed build cache shared across sessions), the datasets, and ``run_one`` on the test's
``adapter``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

# Bytecode caches are written, whatever the environment says: with PYTHONDONTWRITEBYTECODE set (and
# `make install` installs with --no-compile) every `wapii` process a test starts would compile each
# module it imports from source again (torch and transformers alone: ~6 s of CPU per process; the
# CLI: ~0.2 s per start). The processes the tests start inherit this.
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
    sys.dont_write_bytecode = False


# Go's build cache is content-addressed: every test session shares the user's (the standard library
# compiled with the capture overlay once, not once per session's fresh wapii cache)
os.environ.setdefault("WAPII_GO_BUILD_CACHE", str(Path(os.environ.get("WAPII_CACHE_DIR") or Path.home() / ".cache"
                                                         / "wapii") / "go" / "build-cache"))


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    """A cache dir per test session (``WAPII_TEST_CACHE_DIR`` reuses one, e.g. to keep npm installs)."""
    cache = tmp_path_factory.getbasetemp() / "cache"
    monkeypatch.setenv("WAPII_CACHE_DIR", os.environ.get("WAPII_TEST_CACHE_DIR", str(cache)))


@pytest.fixture(scope="session")
def wapiibench():
    """WAPIIBench from the shared data (:func:`support.shared_path`; skips without it)."""
    from support import shared_path
    from wapii_core.run.runner import load_dataset

    return load_dataset("wapiibench", shared_path("wapiibench", "dataset.json").parent)


@pytest.fixture(scope="session")
def demo():
    """The built-in demo dataset."""
    from wapii_core.run.runner import load_dataset

    return load_dataset("demo", None)


@pytest.fixture
def run_one(adapter):
    """``run_one(call) -> Capture``: executes one extracted call on the test's ``adapter``."""

    def run(call: str):
        (capture,) = adapter.execute([call])
        return capture

    return run


@pytest.fixture(autouse=True)
def _isolation_requirement_restored(monkeypatch):
    """``--require-isolation`` holds for the rest of a process (``set_require_isolation``): a test that
    runs the CLI in this process must not leave it on for the tests after it."""
    from wapii_core.sandbox import layers

    monkeypatch.setattr(layers, "_required", layers._required)
    if layers.REQUIRE_ENV in os.environ:
        monkeypatch.setenv(layers.REQUIRE_ENV, os.environ[layers.REQUIRE_ENV])
    else:  # recorded as absent, so that it is absent again after the test
        monkeypatch.setenv(layers.REQUIRE_ENV, "")
        monkeypatch.delenv(layers.REQUIRE_ENV)


SLOW_S = 3.0
"""A test that takes longer than this (setup and call) belongs in the ``slow`` tier."""
_unmarked_slow: list[tuple[float, str]] = []
_setup_seconds: dict[str, float] = {}


def pytest_runtest_logreport(report):
    """Notes the tests over :data:`SLOW_S` that are not marked ``slow`` (``make check`` runs them)."""
    if "slow" in report.keywords:
        return
    if report.when == "setup":
        _setup_seconds[report.nodeid] = report.duration
    elif report.when == "call":
        spent = report.duration + _setup_seconds.pop(report.nodeid, 0.0)
        if spent > SLOW_S:
            _unmarked_slow.append((spent, report.nodeid))


def pytest_terminal_summary(terminalreporter):
    """Lists them at the end of the run, slowest first, so that the tiers stay honest (the time
    depends on the machine's load: a list from a busy machine overstates)."""
    if _unmarked_slow:
        terminalreporter.section(f"over {SLOW_S:.0f} s without @pytest.mark.slow")
        for spent, nodeid in sorted(_unmarked_slow, reverse=True):
            terminalreporter.write_line(f"{spent:6.1f}s {nodeid}")
