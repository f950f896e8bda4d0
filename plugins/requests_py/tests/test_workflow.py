"""Workflow tasks with requests and httpx (docs/workflows.md): the checks of
``tests/workflow_support.py`` for each library, run in the real sandboxed Python workers against the
real mock of Asana; and the Python extraction of a whole program."""

from __future__ import annotations

import pytest

from wapii_requests_py.adapter import PythonAdapter
from wapii_requests_py.libraries import LIBRARIES
from workflow_support import *  # noqa: F401,F403  (the shared workflow tests, collected here)
from workflow_support import project_gid, run, workflow_calls, workflow_sample


@pytest.fixture(scope="module", params=sorted(LIBRARIES))
def workflow_adapter(request):
    """Each library's adapter, 10 s per program (a 429's Retry-After waits a second)."""
    with PythonAdapter(LIBRARIES[request.param], timeout_s=10.0) as instance:
        yield instance


def test_it_declares_workflows(workflow_adapter) -> None:
    assert workflow_adapter.capabilities.workflows and workflow_adapter.capabilities.answers


def test_prose_without_a_fence_is_not_run_and_a_broken_program_fails(workflow_adapter) -> None:
    """The program is the longest prefix that compiles (prose after the code is left out); a program
    broken inside its code still runs as written, so that its SyntaxError fails it."""
    calls = workflow_calls(project_gid())
    program = workflow_adapter.render_workflow(calls, workflow_sample(calls))
    extraction = workflow_adapter.extract_program(program + "\nThis program lists the projects first.\n")
    assert extraction.call == program
    broken = program.replace("send(lambda: ", "send(lambda ", 1)
    assert workflow_adapter.extract_program(broken).call == broken
    capture, _ = run(workflow_adapter, broken)
    assert capture.error == "runtime_error" and "SyntaxError" in capture.detail and not capture.exchanges


def test_a_program_cut_inside_its_first_request_is_incomplete(workflow_adapter) -> None:
    calls = workflow_calls(project_gid())
    program = workflow_adapter.render_workflow(calls, workflow_sample(calls))
    cut = program[:program.index("send(lambda: ") + len("send(lambda: ") + 12]
    assert workflow_adapter.extract_program(cut).error == "incomplete_request"
