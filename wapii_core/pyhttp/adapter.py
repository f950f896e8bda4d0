"""What every Python HTTP-library adapter does the same way: :class:`PythonAdapterBase`.

A subclass names its :class:`~wapii_core.pyhttp.library.PythonLibrary` and its harness (the function the
sandboxed workers call, the modules they pre-load, the trusted warm-up snippets they run once before
forking), and writes its own prompt, rendering and grammar. The base extracts the first request
(:mod:`wapii_core.pyhttp.extract`), runs the calls in the core's sandboxed Python pool, turns each
result into a :class:`~wapii_core.base.model.Capture` from the bytes sent on the wire
(:mod:`wapii_core.pyhttp.capture`) and normalises the captured request
(:mod:`wapii_core.pyhttp.normalise`).
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from wapii_core.base.capabilities import AdapterCapabilities
from wapii_core.base.model import Capture, Extraction
from wapii_core.base.workers import ClosedOnExit, LazyPool, env_prefix, worker_settings
from wapii_core.pyhttp.capture import python_capture
from wapii_core.pyhttp.extract import extract_python_call, extract_python_program
from wapii_core.pyhttp.library import PythonLibrary
from wapii_core.pyhttp.normalise import normalise_python_request
from wapii_core.sandbox.dialogue import answers

class SnippetPool(Protocol):
    """What the adapter needs of a pool: ``start`` (in the background), ``run`` (one result per snippet,
    in order) and ``close``."""

    def start(self) -> None: ...

    def run(self, snippets: list[str]) -> list[Any]: ...

    def close(self) -> None: ...


class PythonAdapterBase(ClosedOnExit):
    """Extraction, sandboxed execution and normalisation for one Python HTTP library.

    ``workers`` (default: one per CPU, or ``$WAPII_<ADAPTER>_WORKERS``, e.g. ``WAPII_REQUESTS_PY_WORKERS``)
    processes execute the calls; each call gets ``timeout_s`` seconds of wall time (default 2, or
    ``$WAPII_<ADAPTER>_TIMEOUT``): :func:`wapii_core.base.workers.worker_settings`.
    Judged by default in ``wire`` mode (:attr:`default_mode`): the requests are captured as sent.
    Subclasses set :attr:`harness` (``"module:function"``), :attr:`preload` and :attr:`warmup`.
    """

    default_mode = "wire"
    harness: ClassVar[str]
    preload: ClassVar[list[str]]
    warmup: ClassVar[list[str]]

    def __init__(self, library: PythonLibrary, workers: int | None = None, timeout_s: float | None = None) -> None:
        self.library = library
        self.name = library.adapter
        self.workers, self.timeout_s = worker_settings(env_prefix(self.name), workers, timeout_s)
        self._pool: LazyPool[SnippetPool] = LazyPool(self._start_pool, self.name)

    @property
    def capabilities(self) -> AdapterCapabilities:
        """Python, the library's module, captured on the wire; constrained where the subclass has a
        ``constraint``, workflows where it has a ``render_workflow`` (the base extracts the whole
        program); the statements after the call still run (not a single call)."""
        return AdapterCapabilities(language="python", library=self.library.module, wire_capture=True, answers=True,
                                   constrained=callable(getattr(type(self), "constraint", None)),
                                   workflows=callable(getattr(type(self), "render_workflow", None)))

    def extract(self, code: str) -> Extraction:
        """The statements that issue the program's first request (see :mod:`wapii_core.pyhttp.extract`)."""
        return extract_python_call(code, self.library)

    def extract_program(self, code: str) -> Extraction:
        """The whole program of a workflow task as it runs, not cut at its first request
        (:func:`wapii_core.pyhttp.extract.extract_python_program`)."""
        return extract_python_program(code, self.library)

    def setup(self) -> None:
        """Nothing to install: the libraries are dependencies of the adapter's distribution."""

    def _start_pool(self) -> SnippetPool:
        """The sandboxed pool (``wapii_core.sandbox.PythonPool``) running this adapter's harness."""
        from wapii_core.sandbox import PythonPool

        return PythonPool(preload=list(self.preload), harness=self.harness, workers=self.workers,
                          timeout=self.timeout_s, warmup=list(self.warmup))

    def start(self) -> None:
        """Starts the workers in the background and returns at once (:meth:`execute` reports what fails
        here again); a :meth:`close` before the start is under way cancels it."""
        self._pool.start_in_background()

    def execute(self, calls: list[str], responders: list[Any] | None = None) -> list[Capture]:
        """Runs each extracted call in its own sandboxed process; one Capture per call, in order.
        ``responders`` (one per call, or None): who answers each program's requests; an answered
        program runs to its end and its Capture holds every exchange (the first request is judged)."""
        if not calls:
            return []
        pool = self._pool.get()
        results = pool.run(list(calls), responders) if responders is not None else pool.run(list(calls))
        answered = [answers(r) for r in responders] if responders is not None else [False] * len(calls)
        return [python_capture(result, call, by).model_copy(update={"execution_s": result.elapsed_s})
                for result, call, by in zip(results, calls, answered)]

    def normalise(self, request: dict[str, Any]) -> dict[str, Any]:
        """The neutral config of a captured request (see :mod:`wapii_core.pyhttp.normalise`)."""
        return normalise_python_request(request, self.library)

    def close(self) -> None:
        """Stops the workers (they start again on the next :meth:`execute`)."""
        self._pool.close()
