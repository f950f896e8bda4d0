"""The run's judging stage: the judge a run's inputs call for, and every pending generation judged in
chunks of :data:`CHUNK`, each result stored as its chunk ends (the judge owns one sample's path from
its extraction to its :class:`~wapii_core.base.model.SampleResult`: :meth:`Judge.result`)."""

from __future__ import annotations

from typing import Any, Callable, Iterator

from wapii_core.base.model import Generation, Sample, SampleResult, Setup
from wapii_core.base.protocols import Adapter, Dataset
from wapii_core.judge.generations import Judge
from wapii_core.judge.unstarted import provisional
from wapii_core.run.plan import Inputs, Progress, check_workflow, refuse_unanswering
from wapii_core.store.rundir import RunStore

__all__ = ["CHUNK", "chunks", "judge_for", "judge_pending", "judged", "mock_responders"]


CHUNK = 64
"""Samples judged per step: small enough that an interrupted run loses little. (Generation is not
chunked: the backend gets every pending request at once and yields each as it is ready.)"""


def chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def mock_responders(dataset: Dataset, samples: list[Sample] | None = None) -> Callable[[Generation], Any]:
    """A fresh responder of the :class:`~wapii_core.mock.SpecMock` of each generation's sample's API
    description, seeded by the sample and draw: the same generation gets the same answers in any run,
    on any machine, in any order. The mocks of the APIs of ``samples`` (default: the dataset's) are
    derived here, once each, so that a description the mock cannot read ends the run before any
    program runs."""
    import hashlib

    from wapii_core.mock import SpecMock

    apis = {sample.id: sample.api for sample in dataset.samples}
    mocks = {api: SpecMock.for_spec(dataset.specs[api])
             for api in dict.fromkeys(sample.api for sample in (dataset.samples if samples is None else samples))}

    def responder(gen: Generation) -> Any:
        seed = int.from_bytes(hashlib.sha256(f"{gen.sample}#{gen.draw}".encode()).digest()[:4], "big")
        api = apis[gen.sample]
        if api not in mocks:
            mocks[api] = SpecMock.for_spec(dataset.specs[api])
        return mocks[api].responder(seed=seed)

    return responder


def judge_for(adapter: Adapter, inputs: Inputs) -> Any:
    config = inputs.config
    check_workflow(adapter, config, inputs.samples)
    if config.setup == Setup.workflow:
        from wapii_core.workflows.programs import WorkflowJudge

        judge = WorkflowJudge(adapter, inputs.dataset, constrained=config.setting.startswith("constrained"))
        judge.check(inputs.samples)
        return judge
    refuse_unanswering(adapter, config)
    responders = mock_responders(inputs.dataset, inputs.samples) if config.answers == "mock" else None
    return Judge(adapter, inputs.dataset, config.mode, constrained=config.setting.startswith("constrained"),
                 responders=responders)


def judge_pending(store: RunStore, judge: Any, keys: list[str], progress: Progress) -> None:
    """Judge every stored generation of ``keys`` without a final result (unrun ones again), storing each result."""
    finished = store.finished_generations()
    pending = [finished[k] for k in keys if k in finished and provisional(store.results.get(k))]  # unrun ones again
    for result in judged(judge, pending, progress("judging", len(pending))):
        store.add_result(result)


def judged(judge: Any, generations: list[Generation], advance: Callable[[int], Any]) -> Iterator[SampleResult]:
    """Each of ``generations`` judged, in order, a chunk at a time (``advance(n)`` after each chunk);
    the adapter's workers are started first when there is anything to judge."""
    if generations:
        # Only now, with every input checked, the backend's checks passed and the generations in: a run
        # that ends before (bad input, a failed preflight, a backend that fails) starts no worker and
        # prints no sandbox warning, and one with nothing left to judge starts none either.
        judge.adapter.start()
    for chunk in chunks(generations, CHUNK):
        yield from judge(chunk)
        advance(len(chunk))
