"""Hostile workflow programs (docs/workflows.md), judged in one batch with a correct one: a program
that floods the task's mock with creations and one that writes terminal escapes and markup into the
object it creates are judged (``wrong``, the damage or the difference named), within the documented bounds, without
changing the verdict of the correct program beside them; what they wrote reaches ``wapii show`` only
made inert."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from test_hostile_text import HOSTILE, assert_contained
from test_workflows import BASE, PROGRAM, PROGRAMS, TASK, dataset_dir
from wapii_core.sandbox.dialogue import MAX_EXCHANGES

FLOOD = ('for i in range(500):\n'
         '    requests.post(B + "/tasks", json={"data": {"name": f"spam {i}", "projects": [gid]}}, headers=H)\n')
ESCAPES = ('requests.post(B + "/tasks", json={"data": {"name": NAME, "projects": [gid]}}, headers=H)\n')


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    from wapii_core.base import plugins
    from wapii_core.base.model import Generation
    from wapii_core.datasets.loader import load_dataset_dir
    from wapii_core.workflows.programs import WorkflowJudge

    ds = load_dataset_dir(dataset_dir(tmp_path_factory.mktemp("wf"), [TASK]), "wf")
    adapter = plugins.adapters.get("requests_py")()
    try:
        bodies = {"flood": FLOOD, "escapes": f"NAME = {HOSTILE!r}\n" + ESCAPES, "correct": PROGRAMS["correct"]}
        generations = [Generation(sample="asana/0", draw=d, code=PROGRAM.format(base=BASE, body=body))
                       for d, body in enumerate(bodies.values())]
        yield dict(zip(bodies, WorkflowJudge(adapter, ds)(generations)))
    finally:
        adapter.close()


def test_a_flood_ends_at_the_bound_and_is_judged_with_its_damage(judged):
    flood = judged["flood"]
    assert flood.error == "runtime_error" and len(flood.exchanges) == MAX_EXCHANGES
    assert flood.verdict == "wrong" and "damage" in flood.workflow.failed
    assert flood.workflow.extra == MAX_EXCHANGES - 2  # the look-up and one create pair with calls
    assert judged["correct"].verdict == "correct"


def test_what_a_program_writes_into_the_store_reaches_the_terminal_inert(judged):
    from wapii_core.report.sample_story import workflow_parts

    escapes = judged["escapes"]
    assert escapes.verdict == "wrong" and "created otherwise than asked" in escapes.workflow.missing[0]
    out = io.StringIO()
    Console(file=out, color_system=None, width=200).print(*workflow_parts(escapes))
    assert "\\u001b" in out.getvalue() or "\\x1b" in out.getvalue()  # the escape is shown, as text
    assert_contained(out.getvalue())
