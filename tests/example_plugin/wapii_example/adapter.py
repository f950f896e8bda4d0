"""The ``urllib_py`` adapter: Python programs that call a web API with ``urllib.request``."""

from __future__ import annotations

import threading
from typing import Any

from wapii_core.api import Capture, Dataset, Extraction, Prompt, Sample, Setup
from wapii_core.kits.sandbox import Isolation
from wapii_core.kits.python import PythonPool

from .extract import extract_call
from .normalise import normalise_record, to_capture
from .program import build_prompt, render_program

HARNESS = "wapii_example.harness:run_snippet"
PRELOAD = ["json", "urllib.parse", "urllib.request", "wapii_example.harness"]


class UrllibAdapter:
    """Prompt, extraction, sandboxed execution, normalisation and rendering for ``urllib.request``.

    Judged by default in ``wire`` mode: what urllib sends (query values as the text sent) is what counts.
    """

    name = "urllib_py"
    default_mode = "wire"

    def __init__(self, workers: int | None = None, timeout_s: float = 2.0) -> None:
        self.workers, self.timeout_s = workers, timeout_s
        self._pool: PythonPool | None = None
        self._lock = threading.Lock()

    def prompt(self, sample: Sample, setup: Setup, dataset: Dataset) -> Prompt:
        return build_prompt(sample, setup, dataset)

    def extract(self, code: str) -> Extraction:
        return extract_call(code)

    def _ensure_pool(self) -> PythonPool:
        with self._lock:
            if self._pool is None:  # workers start on the first run
                self._pool = PythonPool(preload=PRELOAD, harness=HARNESS, workers=self.workers, timeout=self.timeout_s)
            return self._pool

    def execute(self, calls: list[str]) -> list[Capture]:
        """Each call in its own sandboxed process (the core's pool); one Capture per call, in order."""
        if not calls:
            return []
        return [to_capture(result) for result in self._ensure_pool().run(list(calls))]

    def isolation(self) -> Isolation:
        """The sandbox layers active here, for ``wapii doctor``."""
        return self._ensure_pool().isolation()

    def normalise(self, request: dict[str, Any]) -> dict[str, Any]:
        return normalise_record(request)

    def render(self, config: dict[str, Any], setup: Setup, sample: Sample) -> str:
        return render_program(config, setup, sample)

    def setup(self) -> None:
        """Nothing to install: urllib is part of Python."""

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.close()
                self._pool = None
