"""The ``nethttp_go`` adapter: Go programs that call a web API through the standard library's net/http."""

from __future__ import annotations

import threading
from typing import Any

from wapii_core.api import AdapterCapabilities, Capture, Dataset, Extraction, Prompt, Sample, Setup
from wapii_core.kits.sandbox import Isolation, env_prefix, worker_settings

from .capture import normalise_record, to_capture
from .extract import extract_go_program, extract_go_workflow
from .prompt import build_prompt
from .render import render_program


class NetHttpGoAdapter:
    """Prompt, extraction, batch compilation, sandboxed execution, normalisation and rendering for net/http.

    Each batch of programs is compiled with one toolchain call into one binary (:mod:`.build`); every
    program then runs in a process of its own under the core's :class:`ProgramPool` (bubblewrap or
    Landlock, rlimits, its own session and Landlock domain), and is judged on the request net/http
    wrote to the capture channel (:mod:`.capture`). Judged by default in ``wire`` mode.
    ``workers`` (default: one per CPU, or ``$WAPII_NETHTTP_GO_WORKERS``) processes run the programs; each gets
    ``timeout_s`` seconds of wall time (default 2, or ``$WAPII_NETHTTP_GO_TIMEOUT``). Constrained decoding is
    not offered (no ``constraint``): ``--setting constrained`` is refused. Runs workflows
    (``--setup workflow``): :meth:`extract_program` keeps the whole program, :meth:`render_workflow`
    writes the oracle's (:mod:`.workflow`).
    """

    name = "nethttp_go"
    default_mode = "wire"
    capabilities = AdapterCapabilities(language="go", library="net/http", single_call=False, constrained=False,
                                       modes=("wire",), wire_capture=True, answers=True, workflows=True)

    def __init__(self, workers: int | None = None, timeout_s: float | None = None) -> None:
        from .toolchain import goroot

        goroot()  # a missing toolchain is one line naming what to install, before a run writes anything
        self.workers, self.timeout_s = worker_settings(env_prefix(self.name), workers, timeout_s)
        self._pool: Any = None
        self._lock = threading.Lock()
        self._warmed = False
        self.timings: dict[str, float] = {}

    def prompt(self, sample: Sample, setup: Setup, dataset: Dataset) -> Prompt:
        return build_prompt(sample, setup, dataset)

    def extract(self, code: str) -> Extraction:
        """The program, cut at its closing fence, with the span of its first sending call."""
        return extract_go_program(code)

    def render(self, config: dict[str, Any], setup: Setup, sample: Sample) -> str:
        """A full program for ``setup`` that issues exactly ``config`` (the same in every mode)."""
        return render_program(config, setup, sample)

    def extract_program(self, code: str) -> Extraction:
        """A workflow's whole program (cut at its closing fence, not at a request): what :meth:`execute` runs."""
        return extract_go_workflow(code)

    def render_workflow(self, calls: list[dict[str, Any]], sample: Sample) -> str:
        """The oracle's whole program for a workflow: the workflow starter, then ``calls`` sent in order,
        each ``{{N.path}}`` read from the answer to call N, a ``429`` sent again after its ``Retry-After``."""
        from .workflow import render_workflow_program

        return render_workflow_program(calls, sample)

    def normalise(self, request: dict[str, Any]) -> dict[str, Any]:
        return normalise_record(request)

    def setup(self) -> None:
        """Checks the toolchain, builds the preprocessor and compiles the standard library with the
        capture overlay into the build cache (the first time: a minute or two)."""
        from wapii_core.kits.sandbox import CompileBudget

        from .build import build_batch

        # the standard library with the capture overlay may be compiled here: minutes, not a batch's share
        batch = build_batch([_WARMUP], CompileBudget(base_s=1800.0))
        try:
            if batch.programs[0].error:
                from wapii_core.api import WapiiError

                raise WapiiError(f"nethttp_go: the toolchain cannot build a net/http program: {batch.programs[0].error}")
        finally:
            batch.remove()

    def _ensure_pool(self) -> Any:
        with self._lock:
            if self._pool is None:
                from wapii_core.kits.sandbox import ProgramPool

                from .build import batches_dir

                root = batches_dir()
                self._pool = ProgramPool("go", read_paths=[root], run_paths=[root], workers=self.workers,
                                         timeout=self.timeout_s, env={"GOMAXPROCS": "2", "GOTRACEBACK": "single"},
                                         memory=2 << 30, processes=None)
            return self._pool

    def _warm(self) -> None:
        """:meth:`setup` once per adapter, so that no batch's share of time pays for the standard library."""
        with self._lock:
            if self._warmed:
                return
            self.setup()
            self._warmed = True

    def start(self) -> None:
        """Starts the workers in the background (the toolchain is checked by :meth:`execute`)."""
        try:
            self._ensure_pool().start()
        except Exception:  # noqa: BLE001 - execute() meets it again and reports it
            pass

    def execute(self, calls: list[str], responders: list[Any] | None = None) -> list[Capture]:
        """Compiles the batch, then runs each program in its own sandboxed process; one Capture per call.
        ``responders`` (one per call, or None): who answers each program's requests (net/http reads the
        answers as a server's; the program runs to its end and its Capture holds every exchange)."""
        if not calls:
            return []
        from .build import build_batch
        from .toolchain import goroot

        goroot()  # a missing toolchain is one line naming what to install
        pool = self._ensure_pool()
        self._warm()
        batch = build_batch(list(calls))
        try:
            runnable = [(i, built.argv) for i, built in enumerate(batch.programs) if built.argv]
            answering = [responders[i] for i, _ in runnable] if responders is not None else None
            results = (pool.run([argv for _, argv in runnable], answering) if answering is not None
                       else pool.run([argv for _, argv in runnable])) if runnable else []
            captures: list[Capture] = [Capture(error="runtime_error", detail=built.error)
                                       if built.error else Capture() for built in batch.programs]
            for (index, _), result in zip(runnable, results):
                captures[index] = to_capture(result).model_copy(update={"execution_s": result.elapsed_s,
                                                                        "exchanges": result.exchanges})
            for key, value in batch.timings.items():
                self.timings[key] = self.timings.get(key, 0.0) + value
            return captures
        finally:
            batch.remove()

    def isolation(self) -> Isolation:
        return self._ensure_pool().isolation()

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.close()
                self._pool = None

    def __enter__(self) -> NetHttpGoAdapter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


_WARMUP = """package main

import (
	"net/http"
	"strings"
)

func main() {
	req, err := http.NewRequest("POST", "https://example.com/", strings.NewReader("{}"))
	if err != nil {
		panic(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
}
"""
