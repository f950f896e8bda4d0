"""Workflow tasks with axios (docs/workflows.md): the checks of ``tests/workflow_support.py``, run in
the real Node sandbox against the real mock of Asana."""

from __future__ import annotations

import pytest

from support import skip_without_node
from workflow_support import *  # noqa: F401,F403  (the shared workflow tests, collected here)


@pytest.fixture(scope="module")
def workflow_adapter():
    """The adapter, 10 s per program (a 429's Retry-After waits a second)."""
    skip_without_node()
    from wapii_axios_js.adapter import AxiosAdapter

    with AxiosAdapter(timeout_s=10.0) as instance:
        yield instance


def test_it_declares_workflows(workflow_adapter) -> None:
    assert workflow_adapter.capabilities.workflows and workflow_adapter.capabilities.answers


def test_a_program_that_imports_axios_as_a_module_runs(workflow_adapter) -> None:
    """A model that writes ``import axios from 'axios'`` (the module form of the starter's require)
    gets the same library: the program runs the whole task."""
    from workflow_support import PROGRAMS, TASK, assert_task_and_story, project_gid, run

    program = f"// {TASK}\nimport axios from 'axios';\n\n" + (PROGRAMS / "axios.js.txt").read_text(encoding="utf-8")
    capture, responder = run(workflow_adapter, program)
    assert capture.error is None, capture.detail
    assert len(capture.exchanges) == 3
    assert_task_and_story(responder, project_gid())
