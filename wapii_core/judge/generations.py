"""Judging generations: extract each program's call, execute it in the sandbox, normalise the captured
request and compare it with the expected one (docs: metrics.md §2-6).

:class:`Judge` turns generations into results, one per generation, in order; each result holds the
whole story of its verdict (the run record, :mod:`wapii_core.store.record`): the extracted call and
where it sits in the program, the captured request as normalised, the expected request, a reason for
each verdict that is not ``correct`` (:mod:`wapii_core.judge.reasons`), the endpoint the URL resolved
to and the execution time.
"""

from __future__ import annotations

from typing import Any, Callable

from wapii_core.base.errors import WapiiError
from wapii_core.base.text import exception_line, shortened
from wapii_core.base.jsonwalk import unstorable
from wapii_core.base.model import ERROR_KINDS, Capture, Extraction, Generation, ResultTimings, Sample, SampleResult
from wapii_core.base.protocols import MODES, Adapter, Dataset
from wapii_core.judge import unstarted
from wapii_core.judge.api_rules import with_rules
from wapii_core.judge.capture_limits import oversized, too_many_values
from wapii_core.judge.reasons import reasons

MAX_REQUEST_DEPTH = 100
"""Lists and objects a normalised request may nest (the result store writes at most ~250)."""
def _utf8_text(text: str) -> str:
    """``text`` with any lone surrogate written as its escape (the results are UTF-8)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def expected_request(sample: Sample) -> dict[str, Any] | None:
    """The request ``sample`` expects, as the results store it (None when it is too large to store:
    bounded like a captured request, :mod:`wapii_core.judge.capture_limits`)."""
    if oversized(sample.config) is not None or too_many_values(sample.config) is not None:
        return None
    return sample.config


def extracted(gen: Generation, extract: Callable[[str], Extraction], constrained: bool) -> tuple[Extraction, str | None]:
    """``(extraction, detail)`` of one generation by ``extract`` (an adapter's ``extract``, or its
    ``extract_program`` for a workflow): a generation that timed out or was unsatisfiable is that
    error, a constrained one cut by the token limit is incomplete, and an extractor that raises on
    the code makes it a ``runtime_error`` whose detail says why."""
    if gen.finish_reason in ("timeout", "unsatisfiable"):
        return Extraction(error=gen.finish_reason), None
    if constrained and gen.finish_reason == "length":
        return Extraction(error="incomplete_request"), None
    try:
        return extract(gen.code or ""), None
    except Exception as exc:  # e.g. a parser's MemoryError on absurdly nested code
        return Extraction(error="runtime_error"), f"extraction failed: {exception_line(exc)}"


def call_span(code: str | None, call: str | None, span: tuple[int, int] | None) -> tuple[int, int] | None:
    """Where the judged call sits in the program: the extractor's span, else where ``call`` occurs as is."""
    if span is not None:
        return span
    if code and call:
        start = code.find(call.rstrip())
        if start != -1:
            return (start, start + len(call.rstrip()))
    return None


def default_mode(adapter: Adapter) -> str:
    """The comparison mode an adapter is judged in unless told otherwise (its ``default_mode``)."""
    return adapter.default_mode


class Judge:
    """Extract, execute, normalise and compare generations with one adapter and the dataset's specs."""

    def __init__(self, adapter: Adapter, dataset: Dataset, mode: str | None = None, constrained: bool = False,
                 responders: Callable[[Generation], Any] | None = None) -> None:
        """``responders``: a fresh :class:`~wapii_core.mock.exchange.Responder` (or None) for each
        generation, answering its program's requests (the adapter must declare
        ``capabilities.answers``); each result then records the exchanges. None: nothing answers, the
        first-call benchmark as published.

        The verdict is the first-call benchmark's either way: an answered program can end otherwise
        than under the empty answer (axios rejects a ``404``, so the call fails after its request; a
        program parses a body the empty answer lacks), so each answered call also runs unanswered,
        and that run is judged. Answering costs a second execution of every program."""
        from wapii_core.judge.compare import judge
        from wapii_core.openapi.index import SpecIndex
        from wapii_core.judge.wire import judge_wire

        mode = mode or default_mode(adapter)
        if mode not in MODES:
            from wapii_core.base.errors import did_you_mean

            raise WapiiError(f"unknown comparison mode {mode!r}{did_you_mean(mode, list(MODES))} "
                             f"(known: {', '.join(MODES)})")
        self._judge = judge
        self._judge_wire = judge_wire
        self.constrained = constrained  # a constrained generation cut off by the token limit is incomplete
        self.adapter = adapter
        self.dataset = dataset
        self.strict = mode == "strict"
        self.journal = mode == "journal"
        self.literal_urls = mode in ("strict", "wire")  # reference and journal read path templates as regexes
        self.mode = mode
        self._specs = {api: SpecIndex.load(path) for api, path in dataset.specs.items()}
        self._samples = {s.id: s for s in dataset.samples}
        if responders is not None and not adapter.capabilities.answers:
            raise WapiiError(f"adapter {adapter.name!r} cannot deliver a responder's answers to its programs "
                             "(its capabilities do not declare 'answers')")
        self.responders = responders

    def __call__(self, generations: list[Generation]) -> list[SampleResult]:
        """One result per generation, in order.

        Nothing one program does can stop the others from being judged: an extraction or a
        ``normalise`` that raises, a captured request without the neutral shape
        (:mod:`wapii_core.judge.request_schema`) or a comparison that raises makes that sample a
        ``runtime_error`` whose detail says why (``bad_capture: ...`` for what the capture held).
        """
        extractions = [self._extract(gen) for gen in generations]
        calls = [self._runnable(self._samples[gen.sample], ext.call)
                 for gen, (ext, _) in zip(generations, extractions) if ext.call is not None]
        answering = None if self.responders is None else [
            self.responders(gen) for gen, (ext, _) in zip(generations, extractions) if ext.call is not None]
        captures = iter(self._executed(calls))
        unrun = self._unrun
        answered = None if answering is None else iter(self._executed(calls, answering))
        self._unrun = unrun or self._unrun
        results = []
        for gen, extraction in zip(generations, extractions):
            ran = extraction[0].call is not None
            results.append(self.result(gen, extraction, next(captures) if ran else None,
                                       next(answered) if ran and answered is not None else None))
        return results

    def result(self, gen: Generation, extraction: tuple[Extraction, str | None], capture: Capture | None,
               answered: Capture | None = None) -> SampleResult:
        """One generation's whole path from its extraction (``(extraction, detail)``) to its result:
        the ``capture`` of its call's execution (None: no call was extracted) normalised, compared
        with the sample's expected request, and recorded with the call's span, its timings, whether
        it ran and (``answered``: its run against the responder) the exchanges its program had.
        Executions are batched across a chunk by :meth:`__call__`; everything else about a sample is here."""
        ext, detail = extraction
        request, error, execution_s = None, ext.error, None
        if capture is not None:
            error, detail = capture.error, capture.detail and _utf8_text(shortened(capture.detail))
            execution_s = capture.execution_s
            if capture.request is not None and error is None:
                request, detail = self._normalised(capture.request)
                error = None if request is not None else "runtime_error"
        result = self._compare(self._samples[gen.sample], request, error, ext.call, detail, gen.draw)
        result.call_span = call_span(gen.code, ext.call, ext.span)
        result.timings = ResultTimings(execution_s=execution_s)
        result.provisional = ext.call is not None and self._unrun
        if ext.call is not None and answered is not None:
            result.exchanges = answered.exchanges
        return result

    def _runnable(self, sample: Sample, call: str) -> str:
        """What runs for ``call``: after the definitions of a task with code context (the adapter's
        ``with_definitions``, docs/datasets.md), else the call as it is."""
        if sample.context is None or not sample.context.definitions:
            return call
        return self.adapter.with_definitions(call, sample.context.definitions)

    def _executed(self, calls: list[str], responders: list[Any] | None = None) -> list[Capture]:
        """The adapter's captures of ``calls``; when no worker could start to run them, a
        ``worker_start_failed`` capture for each (:mod:`wapii_core.judge.unstarted`)."""
        from wapii_core.sandbox.supervisor import WorkerStartError

        self._unrun = False
        if not calls:
            return []
        try:
            if responders is not None:
                return self.adapter.execute(calls, responders)  # type: ignore[call-arg]
            return self.adapter.execute(calls)
        except WorkerStartError as exc:
            self._unrun = True
            return unstarted.not_executed(exc, len(calls))

    def _extract(self, gen: Generation) -> tuple[Extraction, str | None]:
        """``(extraction, detail)`` of one generation (metrics.md §2)."""
        return extracted(gen, self.adapter.extract, self.constrained)

    def _normalised(self, captured: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
        """``(request, None)``, or ``(None, "bad_capture: ...")`` when the capture is too large to be
        judged (:mod:`wapii_core.judge.capture_limits`: measured before ``normalise`` decodes it, its
        values counted after), when ``normalise`` fails or when its result does not have the neutral
        shape."""
        from wapii_core.judge.request_schema import BadCapture, check_request

        try:
            problem = oversized(captured)
            if problem is not None:
                return None, f"bad_capture: the captured request {problem}"
            request = self.adapter.normalise(captured)
            problem = too_many_values(request) or unstorable(request, MAX_REQUEST_DEPTH)  # too deep, a lone surrogate
            if problem is not None:
                return None, _utf8_text(f"bad_capture: the captured request {problem}")
            return check_request(request), None
        except BadCapture as exc:
            return None, _utf8_text(f"bad_capture: {exc}")
        except Exception as exc:  # the capture is the program's doing: so is whatever it makes normalise raise
            return None, _utf8_text(f"bad_capture: normalise failed: {exception_line(exc)}")

    def _compare(self, sample: Sample, request: dict[str, Any] | None, error: str | None, call: str | None,
                 detail: str | None, draw: int) -> SampleResult:
        """The sample's result; a comparison that raises on the request makes it ``runtime_error``."""
        try:
            return self._judged(sample, request, error, call, detail, draw)
        except Exception as exc:
            if request is None and error in ERROR_KINDS:
                raise  # not the capture's doing: the expected request or the spec is at fault
            detail = _utf8_text(f"bad_capture: comparison failed: {exception_line(exc)}")
            return self._judged(sample, None, "runtime_error", call, detail, draw)

    def _judged(self, sample: Sample, request: dict[str, Any] | None, error: str | None, call: str | None,
                detail: str | None, draw: int) -> SampleResult:
        spec = self._specs[sample.api]
        rules = self.dataset.rules.get(sample.api)
        judged, sent = sample, request
        if rules is not None:  # the dataset's own rules for this API's URLs (wapii_core.judge.api_rules)
            strict_urls = self.literal_urls
            judged = sample.model_copy(update={"config": with_rules(sample.config, rules, strict_urls)})
            sent = None if request is None else with_rules(request, rules, strict_urls)
        if self.mode == "wire":
            result = self._judge_wire(judged, spec, sent, error, call=call, error_detail=detail, draw=draw)
        else:
            result = self._judge(judged, spec, sent, error, call=call, error_detail=detail, draw=draw,
                                 strict=self.strict, journal=self.journal)
        if rules is not None and request is not None:
            result.request = request
        result.mode = self.mode
        result.expected_request = expected_request(sample)
        result.reasons = reasons(result, sample.config, self._expected_endpoint(judged, spec))
        return result

    def _expected_endpoint(self, sample: Sample, spec: Any) -> str | None:
        """``"GET /books"``: the method and the spec path of the request ``sample`` expects (None: not
        a path of the spec), matched as this mode matches URLs."""
        url, method = sample.config.get("url"), sample.config.get("method")
        paths = spec.candidates(url, self.literal_urls) if isinstance(url, str) else []
        return f"{str(method).upper()} {paths[0]}" if paths else None
