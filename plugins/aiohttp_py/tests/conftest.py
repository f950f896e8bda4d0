"""Fixtures for the aiohttp adapter's tests: one sandboxed adapter and a judge on the demo API."""

from __future__ import annotations

import pytest

from wapii_core.api import Generation, SampleResult


@pytest.fixture(scope="session")
def adapter():
    """The adapter once per session (its sandboxed workers start once), 1 s per call."""
    from wapii_aiohttp_py.adapter import AiohttpAdapter

    with AiohttpAdapter(timeout_s=1.0) as instance:
        yield instance


@pytest.fixture
def judged(adapter, demo):
    """``judged(program, sample="larchwood/0", mode="wire") -> SampleResult``."""
    from wapii_core.testing import Judge

    def run(program: str, sample: str = "larchwood/0", mode: str = "wire") -> SampleResult:
        (result,) = Judge(adapter, demo, mode)([Generation(sample=sample, code=program)])
        return result

    return run
