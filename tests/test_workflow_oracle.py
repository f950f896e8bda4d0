"""The oracle of every adapter that runs workflows (``capabilities.workflows``) on a slice of the shipped
``workflows`` dataset: one task of each kind and API (look-ups, pagination, updates, deletes, chains,
read-only tasks and every fault task), rendered by the adapter's ``render_workflow``, extracted by its
``extract_program``, run against each task's mock in one batch and judged: every one ``correct``,
with every expected step sent and judged correct, and nothing extra. The whole dataset, in every
adapter, is ``wapii adapters check``'s and the benchmark's (docs/workflows.md)."""

from __future__ import annotations

import json

import pytest

from support import adapters_where, shared_path
from wapii_core.base import plugins
from wapii_core.base.model import Generation
from wapii_core.workflows.programs import WorkflowJudge

WORKFLOW_ADAPTERS = adapters_where(workflows=True)


def test_every_adapter_runs_workflows() -> None:
    assert set(WORKFLOW_ADAPTERS) == set(plugins.adapters.names())


@pytest.fixture(scope="module")
def dataset():
    return plugins.datasets.get("workflows")(shared_path("wapiibench"))


def slice_of(dataset) -> list:
    """One task per (API, kind) and every fault task, in dataset order."""
    raw = json.loads(dataset.source.read_text())
    kinds = {f"{e['api']}/{e['index']}": e.get("kinds", []) for e in raw}
    seen, chosen = set(), []
    for sample in dataset.samples:
        fresh = [k for k in kinds[sample.id] if (sample.api, k) not in seen]
        if fresh or "fault" in kinds[sample.id]:
            seen.update((sample.api, k) for k in kinds[sample.id])
            chosen.append(sample)
    return chosen


@pytest.mark.parametrize("name", [n if n == "requests_py" else pytest.param(n, marks=pytest.mark.slow)
                                  for n in WORKFLOW_ADAPTERS])
def test_the_oracle_does_every_kind_of_task(dataset, name) -> None:
    adapter = plugins.adapters.get(name)()
    try:
        judge = WorkflowJudge(adapter, dataset)
        samples = slice_of(dataset)
        judge.check(samples)
        programs = [Generation(sample=s.id, draw=0, code=adapter.render_workflow(judge.oracle_calls(s), s))
                    for s in samples]
        results = judge(programs)
    finally:
        adapter.close()
    wrong = {r.sample: (r.verdict, r.error, r.error_detail, r.workflow.failed if r.workflow else None)
             for r in results if r.verdict != "correct"}
    assert not wrong and len(results) >= 20, wrong
    assert all(r.workflow.correct_steps == r.workflow.expected_steps and r.workflow.extra == 0 for r in results)
