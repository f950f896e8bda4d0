"""Workflow tasks with fetch (docs/workflows.md): the checks of ``tests/workflow_support.py``, run in
the real Node sandbox against the real mock of Asana."""

from __future__ import annotations

import pytest

from support import skip_without_node
from workflow_support import *  # noqa: F401,F403  (the shared workflow tests, collected here)


@pytest.fixture(scope="module")
def workflow_adapter():
    """The adapter, 10 s per program (a 429's Retry-After waits a second)."""
    skip_without_node()
    from wapii_fetch_js.adapter import FetchAdapter

    with FetchAdapter(timeout_s=10.0) as instance:
        yield instance


def test_it_declares_workflows(workflow_adapter) -> None:
    assert workflow_adapter.capabilities.workflows and workflow_adapter.capabilities.answers
