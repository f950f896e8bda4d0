"""The ``aiohttp_py`` adapter: Python programs that call a web API with aiohttp's async client."""

from __future__ import annotations

from typing import Any

from wapii_core.api import Dataset, Prompt, Sample, Setup
from wapii_core.kits.python import PythonAdapterBase

from .library import AIOHTTP
from .pool import HARNESS, PRELOAD, WARMUP
from .prompt import build_prompt
from .render import render_program, render_workflow_program


class AiohttpAdapter(PythonAdapterBase):
    """Prompt, rendering and grammar for aiohttp; extraction, sandboxed execution (the harness of
    :mod:`.harness`, capturing at aiohttp's connector) and normalisation from
    :class:`wapii_core.kits.python.PythonAdapterBase`. Options: ``workers``, ``timeout_s``."""

    harness = HARNESS
    preload = PRELOAD
    warmup = WARMUP

    def __init__(self, workers: int | None = None, timeout_s: float | None = None) -> None:
        super().__init__(AIOHTTP, workers, timeout_s)

    def prompt(self, sample: Sample, setup: Setup, dataset: Dataset) -> Prompt:
        """The code-generation prompt for ``sample``, ending with the setup's starter code."""
        return build_prompt(sample, setup, dataset)

    def render(self, config: dict[str, Any], setup: Setup, sample: Sample, mode: str = "wire") -> str:
        """A full program for ``setup`` that issues exactly ``config`` (the same in every mode)."""
        return render_program(config, setup, sample, mode)

    def render_workflow(self, calls: list[dict[str, Any]], sample: Sample) -> str:
        """The oracle's whole program for a workflow task: sends ``calls`` in order in one session, each
        reference read from the answer it names, a 429 sent again after its ``Retry-After``."""
        return render_workflow_program(calls, sample)

    def constraint(self, spec: Any, setup: Setup, *, references: bool = True, compact: bool = False) -> Any:
        """The grammar of a legal call to the API of ``spec`` for constrained decoding (see grammar.py)."""
        from .grammar import constraint

        return constraint(spec, setup, references=references, compact=compact)
