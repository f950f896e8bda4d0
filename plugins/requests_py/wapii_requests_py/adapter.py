"""The ``requests_py`` and ``httpx_py`` adapters: Python programs that call a web API with one library."""

from __future__ import annotations

import os
import threading
from typing import Any

from wapii_core.api import Capture, Dataset, Extraction, Prompt, Sample, Setup, WireError, parse_requests

from .extract import extract_call
from .libraries import HTTPX, REQUESTS, Library
from .normalise import normalise_record
from .pool import SnippetPool, snippet_pool
from .prompt import build_prompt
from .recording import wire_record
from .written import written_query
from .render import render_program

DEFAULT_TIMEOUT_S = 2.0


def to_capture(result: Any, call: str) -> Capture:
    """A pool result as a Capture: the first request the snippet sent down the wire channel, or why
    there is none.

    Every failure of the run (an exception, a timeout, a killed or blocked worker) is a
    ``runtime_error`` whose detail names it, whatever was sent before it; a run that sent no request
    is ``no_request``; bytes that are no HTTP request, or hints of the wrong shape, are a
    ``runtime_error`` with a ``bad_capture`` detail. The request itself comes only from the bytes
    sent, and the typed query values of reference mode from the source of ``call``
    (:mod:`.written`): the snippet's own answer can make it fail, never change what it is judged on.
    """
    if not result.ok:
        if result.error == "no_request":
            return Capture(error="no_request", detail=result.detail)
        detail = result.error if not result.detail else f"{result.error}: {result.detail}"
        return Capture(error="runtime_error", detail=detail)
    try:
        sent = parse_requests(result.wire)
    except WireError as exc:
        return Capture(error="runtime_error", detail=f"bad_capture: {exc}")
    if not sent:
        return Capture(error="no_request", detail="the program ended without issuing a request")
    try:
        record = wire_record(sent[0], written_query(call))
    except ValueError as exc:
        return Capture(error="runtime_error", detail=f"bad_capture: {exc}")
    detail = f"{len(sent)} requests issued; the first is judged" if len(sent) > 1 else None
    return Capture(request=record, detail=detail)


class PythonAdapter:
    """Prompt, extraction, sandboxed execution, normalisation and rendering for one Python HTTP library.

    ``workers`` (default: one per CPU, or ``$WAPII_PYTHON_WORKERS``) processes execute the calls;
    each call gets ``timeout_s`` seconds of wall time (default 2, or ``$WAPII_PYTHON_TIMEOUT``).
    Judged by default in ``wire`` mode (:attr:`default_mode`): the requests are captured as sent.
    """

    default_mode = "wire"

    def __init__(self, library: Library, workers: int | None = None, timeout_s: float | None = None) -> None:
        env_workers = os.environ.get("WAPII_PYTHON_WORKERS")
        env_timeout = os.environ.get("WAPII_PYTHON_TIMEOUT")
        self.library = library
        self.name = library.adapter
        self.workers = workers or (int(env_workers) if env_workers else None)
        self.timeout_s = timeout_s or (float(env_timeout) if env_timeout else DEFAULT_TIMEOUT_S)
        self._pool: SnippetPool | None = None
        self._lock = threading.Lock()

    def prompt(self, sample: Sample, setup: Setup, dataset: Dataset) -> Prompt:
        """The code-generation prompt for ``sample``, ending with the setup's starter code."""
        return build_prompt(self.library, sample, setup, dataset)

    def extract(self, code: str) -> Extraction:
        """The statements that issue the program's first request (see :mod:`.extract`)."""
        return extract_call(code, self.library)

    def setup(self) -> None:
        """Nothing to install: the libraries are dependencies of this distribution."""

    def _ensure_pool(self) -> SnippetPool:
        with self._lock:
            if self._pool is None:
                self._pool = snippet_pool(self.workers, self.timeout_s)
            return self._pool

    def execute(self, calls: list[str]) -> list[Capture]:
        """Runs each extracted call in its own sandboxed process; one Capture per call, in order."""
        if not calls:
            return []
        return [to_capture(result, call) for result, call in zip(self._ensure_pool().run(list(calls)), calls)]

    def normalise(self, request: dict[str, Any]) -> dict[str, Any]:
        """The neutral config of a captured request (see :mod:`.normalise`)."""
        return normalise_record(request, self.library)

    def render(self, config: dict[str, Any], setup: Setup, sample: Sample, mode: str = "wire") -> str:
        """A full program for ``setup`` that issues exactly ``config`` as comparison ``mode`` judges it."""
        return render_program(self.library, config, setup, sample, mode)

    def constraint(self, spec: Any, setup: Setup, *, references: bool = True, compact: bool = False) -> Any:
        """The grammar of a legal call to the API of ``spec`` for constrained decoding (see grammar.py)."""
        from .grammar import constraint

        return constraint(spec, setup, self.name, references=references, compact=compact)

    def close(self) -> None:
        """Stops the workers (they start again on the next :meth:`execute`)."""
        with self._lock:
            if self._pool is not None:
                self._pool.close()
                self._pool = None

    def __enter__(self) -> PythonAdapter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def requests_adapter(**options: Any) -> PythonAdapter:
    """The ``requests_py`` adapter (captured with ``responses``)."""
    return PythonAdapter(REQUESTS, **options)


def httpx_adapter(**options: Any) -> PythonAdapter:
    """The ``httpx_py`` adapter (sync and async clients, captured with ``respx``)."""
    return PythonAdapter(HTTPX, **options)
