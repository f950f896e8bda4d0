"""What every Java HTTP-library adapter does the same way: :class:`JavaAdapterBase`.

A subclass names its :class:`~wapii_core.jvm.support.JavaLibrary` (jars, warm-up program), the
request methods whose first call is extracted, the headers its library sends on its own, and its
:class:`~wapii_core.jvm.program.JavaProgram` (the prompt and the oracle's program). The base extracts the call (:mod:`.javasource`), compiles and runs the
programs in the sandbox (:mod:`.runner`), turns each first request sent into a
:class:`~wapii_core.base.model.Capture` from its bytes and normalises it with the core's wire
normaliser (:func:`wapii_core.judge.sent_request.normalise_wire_request`), told the headers the
library sends on its own: query values are the strings sent (the judged mode is ``wire``).
"""

from __future__ import annotations

import functools
import threading
from typing import Any, Callable, ClassVar

from wapii_core.base.capabilities import AdapterCapabilities
from wapii_core.base.model import Capture, Extraction, Prompt, Sample
from wapii_core.base.protocols import Dataset
from wapii_core.base.setups import Setup
from wapii_core.base.workers import env_prefix, worker_settings
from wapii_core.judge.sent_request import normalise_wire_request
from wapii_core.judge.wire_bodies import raw_bytes
from wapii_core.jvm.javasource import extract_java_call
from wapii_core.jvm.program import JavaProgram
from wapii_core.jvm.runner import DEFAULT_TIMEOUT_S, JavaResult, JavaRunner
from wapii_core.jvm.support import JavaLibrary
from wapii_core.jvm.workflow import extract_program, render_workflow, workflow_prompt
from wapii_core.pyhttp.recording import wire_record
from wapii_core.sandbox.wire_capture import WireError, WireRequest, parse_requests


def java_capture(result: JavaResult) -> Capture:
    """A program's outcome as a Capture: its first request, parsed from the bytes sent, or why none
    (with its exchanges, when a responder answered them)."""
    return _judged(result).model_copy(update={"exchanges": result.exchanges})


def _judged(result: JavaResult) -> Capture:
    if result.error is not None:
        return Capture(error=result.error, detail=result.detail, execution_s=result.elapsed_s)
    try:
        sent = parse_requests(result.wire)
    except WireError as exc:
        return Capture(error="runtime_error", detail=f"bad_capture: {exc}", execution_s=result.elapsed_s)
    if not sent:
        return Capture(error="no_request", detail="the program ended without issuing a request",
                       execution_s=result.elapsed_s)
    detail = f"{result.requests} requests issued; the first is judged" if result.requests > 1 else None
    return Capture(request=wire_record(sent[0], {}), detail=detail, execution_s=result.elapsed_s)


class JavaAdapterBase:
    """Extraction, sandboxed execution and normalisation for one Java HTTP library.

    ``workers`` (default: one per CPU, or ``$WAPII_<ADAPTER>_WORKERS``) sandboxed workers each run one
    JVM at a time; each program gets ``timeout_s`` seconds (default 10, or ``$WAPII_<ADAPTER>_TIMEOUT``).
    """

    default_mode = "wire"
    capabilities: ClassVar[AdapterCapabilities]
    name: ClassVar[str]
    methods: ClassVar[tuple[str, ...]]
    title: ClassVar[str]
    program: ClassVar[JavaProgram]
    """The library's prompt and oracle program (:class:`~wapii_core.jvm.program.JavaProgram`)."""

    def __init__(self, workers: int | None = None, timeout_s: float | None = None) -> None:
        self.workers, self.timeout_s = worker_settings(env_prefix(self.name), workers, timeout_s,
                                                       default_timeout_s=DEFAULT_TIMEOUT_S)
        self._runner: JavaRunner | None = None
        self._lock = threading.Lock()

    # what a subclass gives ----------------------------------------------------------------------
    def java_library(self) -> JavaLibrary:
        raise NotImplementedError

    def own_headers(self) -> Callable[[], dict[str, str]]:
        """The headers the library sends on its own with their values (dropped before judging)."""
        return dict

    # the protocol -------------------------------------------------------------------------------
    def prompt(self, sample: Sample, setup: Setup, dataset: Dataset) -> Prompt:
        if setup is Setup.workflow:
            return workflow_prompt(self.program, sample, dataset)
        return self.program.prompt(sample, setup, dataset)

    def render(self, config: dict[str, Any], setup: Setup, sample: Sample) -> str:
        return self.program.render(config, setup, sample)

    def extract(self, code: str) -> Extraction:
        return extract_java_call(code, self.methods)

    def extract_program(self, code: str) -> Extraction:
        """A workflow's whole program, as ``execute`` runs it (:func:`~wapii_core.jvm.workflow.extract_program`)."""
        return extract_program(code, self.methods)

    def render_workflow(self, calls: list[dict[str, Any]], sample: Sample) -> str:
        """The oracle's whole program for a workflow's ``calls`` (:func:`~wapii_core.jvm.workflow.render_workflow`)."""
        return render_workflow(self.program, calls, sample)

    def setup(self) -> None:
        """Checks the JDK and the runtime (a one-line error naming what to install), builds wapii's
        support jar and the library's class archive (an ahead-of-time cache on Java 25)."""
        runner = self._ensure()
        runner.prepare()

    def _ensure(self) -> JavaRunner:
        with self._lock:
            if self._runner is None:
                self._runner = JavaRunner(self.java_library(), workers=self.workers, timeout=self.timeout_s)
            return self._runner

    def start(self) -> None:
        def start() -> None:
            try:
                self._ensure().start()
            except Exception:  # noqa: BLE001 - execute() meets it again and reports it
                pass

        threading.Thread(target=start, name=f"wapii-{self.name}-start", daemon=True).start()

    def execute(self, calls: list[str], responders: list[Any] | None = None) -> list[Capture]:
        """Runs each program in a JVM of its own; ``responders`` (one per call, or None): who answers
        each program's requests (the library reads each answer as a server's, on its connection)."""
        if not calls:
            return []
        runner = self._ensure()
        results = runner.run(list(calls), responders) if responders is not None else runner.run(list(calls))
        return [java_capture(result) for result in results]

    def normalise(self, request: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(request, dict) or not isinstance(request.get("url"), str):
            raise TypeError("a captured request is a JSON object with a string 'url'")
        sent = WireRequest(str(request.get("method", "")), request["url"],
                           [(name, value) for name, value in request.get("headers") or []], raw_bytes(request.get("body")))
        return normalise_wire_request(sent, own_header=self.is_own_header)

    @functools.cached_property
    def _own(self) -> dict[str, str]:
        """The library's own headers by lower-case name, read on first use (the library may only be
        installed by :meth:`setup`)."""
        return {name.lower(): value for name, value in self.own_headers()().items()}

    def is_own_header(self, name: str, value: str) -> bool:
        """Whether ``name: value`` is a header the library sent on its own, with its own value."""
        return self._own.get(name.lower()) == value

    def cpu_seconds(self) -> dict[str, float]:
        """CPU seconds this adapter's programs used so far: ``jvm`` (every JVM) and ``javac``."""
        return dict(self._runner.cpu_s) if self._runner is not None else {"jvm": 0.0, "javac": 0.0}

    def isolation(self) -> Any:
        return self._ensure().isolation()

    def close(self) -> None:
        with self._lock:
            if self._runner is not None:
                self._runner.close()
                self._runner = None

