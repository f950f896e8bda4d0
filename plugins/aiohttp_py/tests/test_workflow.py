"""Workflow tasks with aiohttp (docs/workflows.md): the checks of ``tests/workflow_support.py``, run
in the real sandboxed Python workers against the real mock of Asana."""

from __future__ import annotations

import pytest

from workflow_support import *  # noqa: F401,F403  (the shared workflow tests, collected here)


@pytest.fixture(scope="module")
def workflow_adapter():
    """The adapter, 10 s per program (a 429's Retry-After waits a second)."""
    from wapii_aiohttp_py.adapter import AiohttpAdapter

    with AiohttpAdapter(timeout_s=10.0) as instance:
        yield instance


def test_it_declares_workflows(workflow_adapter) -> None:
    assert workflow_adapter.capabilities.workflows and workflow_adapter.capabilities.answers
