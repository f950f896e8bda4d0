"""Fixtures for the Python adapters' tests: one sandboxed adapter per library and a judge on the demo API."""

from __future__ import annotations

import pytest

from wapii_core.api import Generation, SampleResult
from wapii_core.testing import Judge
from wapii_requests_py.adapter import PythonAdapter
from wapii_requests_py.libraries import LIBRARIES


@pytest.fixture(scope="session", params=sorted(LIBRARIES))
def adapter(request):
    """Each Python adapter once per session (its sandboxed workers start once), 1 s per call."""
    with PythonAdapter(LIBRARIES[request.param], timeout_s=1.0) as instance:
        yield instance


@pytest.fixture
def judged(adapter, demo):
    """``judged(program, sample="larchwood/0", mode="wire") -> SampleResult``; ``{lib}`` in the program
    is replaced by the adapter's module name."""

    def run(program: str, sample: str = "larchwood/0", mode: str = "wire") -> SampleResult:
        code = program.replace("{lib}", adapter.library.module)
        (result,) = Judge(adapter, demo, mode)([Generation(sample=sample, code=code)])
        return result

    return run
