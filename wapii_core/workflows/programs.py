"""The judge of a workflow run: each generation's whole program run against its task's mock and
judged (:func:`~wapii_core.workflows.judge.judge_workflow`).

One :class:`WorkflowJudge` per run, called with chunks of generations as the run's ``Judge`` is. Per
task, the expected run (:func:`~wapii_core.workflows.replay.replay`) is made once; per program, a
fresh mock with the task's setup (:func:`~wapii_core.workflows.replay.task_responder`) answers it in
the adapter's sandbox, under the usual limits and at most
:data:`~wapii_core.sandbox.dialogue.MAX_EXCHANGES` requests (one more ends the program).
"""

from __future__ import annotations

from typing import Any

from wapii_core.base.errors import WapiiError
from wapii_core.base.model import Capture, Extraction, Generation, ResultTimings, Sample, SampleResult
from wapii_core.base.protocols import Adapter, Dataset
from wapii_core.base.text import exception_line, shortened
from wapii_core.workflows.judge import judge_workflow
from wapii_core.workflows.replay import Replay, Started, oracle_calls, replay, task_responder


class WorkflowJudge:
    """Extract, run against the task's mock, and judge workflow programs with one adapter."""

    def __init__(self, adapter: Adapter, dataset: Dataset, constrained: bool = False) -> None:
        caps = adapter.capabilities
        if not (getattr(caps, "workflows", False) and caps.answers):
            raise WapiiError(f"adapter {adapter.name!r} cannot run workflow tasks (--setup workflow): its "
                             "capabilities do not declare 'workflows'")
        self.adapter = adapter
        self.dataset = dataset
        self.constrained = constrained
        self.mode = "wire"
        self._samples = {s.id: s for s in dataset.samples}
        self._mocks: dict[str, Any] = {}
        self._specs: dict[str, Any] = {}
        self._replays: dict[str, Replay] = {}
        self._setups: dict[str, Started] = {}  # each task's mock after its setup, forked for every program

    def mock(self, api: str) -> Any:
        from wapii_core.mock import SpecMock

        if api not in self._mocks:
            self._mocks[api] = SpecMock.for_spec(self.dataset.specs[api])
        return self._mocks[api]

    def expected(self, sample: Sample) -> Replay:
        """The task's expected run (made once; a task its mock cannot replay is an InputError)."""
        if sample.id not in self._replays:
            self._replays[sample.id] = replay(sample, self.mock(sample.api), str(self.dataset.source or ""))
        return self._replays[sample.id]

    def oracle_calls(self, sample: Sample) -> list[dict[str, Any]]:
        """The task's calls as the oracle's program gets them (RunContext.oracle_calls)."""
        return oracle_calls(sample, self.started(sample))

    def started(self, sample: Sample) -> Started:
        """A fresh mock of the task, its setup made: the task's first one is kept and forked for the others."""
        template = self._setups.get(sample.id)
        if template is None:
            template = self._setups[sample.id] = task_responder(sample, self.mock(sample.api),
                                                                str(self.dataset.source or ""))
        return task_responder(sample, self.mock(sample.api), template=template)

    def check(self, samples: list[Sample]) -> None:
        """Replay every task before any program runs: a task its API's mock cannot do ends the run in one line."""
        for sample in samples:
            self.expected(sample)

    def _spec(self, api: str) -> Any:
        from wapii_core.openapi.index import SpecIndex

        if api not in self._specs:
            self._specs[api] = SpecIndex.load(self.dataset.specs[api])
        return self._specs[api]

    def _extract(self, gen: Generation) -> tuple[Extraction, str | None]:
        from wapii_core.judge.generations import extracted

        return extracted(gen, self.adapter.extract_program, self.constrained)  # type: ignore[attr-defined]

    def __call__(self, generations: list[Generation]) -> list[SampleResult]:
        """One result per generation, in order; nothing one program does stops the others being judged."""
        from wapii_core.judge import unstarted
        from wapii_core.judge.generations import call_span
        from wapii_core.sandbox.supervisor import WorkerStartError

        extractions = [self._extract(gen) for gen in generations]
        runnable = [(gen, ext) for gen, (ext, _) in zip(generations, extractions) if ext.call is not None]
        started = [self.started(self._samples[gen.sample]) for gen, _ in runnable]
        unrun = False
        captures: list[Capture] = []
        if runnable:
            try:
                captures = self.adapter.execute([ext.call for _, ext in runnable],  # type: ignore[call-arg]
                                                [s.responder for s in started])
            except WorkerStartError as exc:
                unrun, captures = True, unstarted.not_executed(exc, len(runnable))
        ran = iter(zip(captures, started))
        results = []
        for gen, (ext, detail) in zip(generations, extractions):
            sample = self._samples[gen.sample]
            if ext.call is None:
                capture, state, generated = Capture(error=ext.error or "no_request", detail=detail), None, None
            else:
                capture, start = next(ran)
                state, generated = start.responder.state(copied=False), start.responder.generated
            if capture.error is None:
                capture = capture.model_copy(update={"detail": None})  # the adapter's note on a first call
            elif capture.detail:
                capture = capture.model_copy(update={"detail": shortened(capture.detail)})
            try:
                result = judge_workflow(sample, self._spec(sample.api), self.expected(sample), capture, state,
                                        generated or (lambda c, i: {}), call=ext.call, draw=gen.draw)
            except WapiiError:
                raise
            except Exception as exc:  # noqa: BLE001 - the exchanges are the program's doing
                result = SampleResult(sample=sample.id, draw=gen.draw, api=sample.api, verdict="nonexecutable",
                                      error="runtime_error", call=ext.call, exchanges=capture.exchanges,
                                      error_detail=f"bad_capture: judging failed: {exception_line(exc)}")
            result.call_span = call_span(gen.code, ext.call, ext.span)
            result.timings = ResultTimings(execution_s=capture.execution_s)
            result.provisional = ext.call is not None and unrun
            results.append(result)
        return results
