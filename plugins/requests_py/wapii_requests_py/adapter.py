"""The ``requests_py`` and ``httpx_py`` adapters: Python programs that call a web API with one library."""

from __future__ import annotations

from typing import Any

from wapii_core.api import Dataset, Prompt, Sample, Setup
from wapii_core.kits.python import PythonAdapterBase

from .libraries import HTTPX, REQUESTS
from .pool import HARNESS, PRELOAD, WARMUP
from .prompt import build_prompt
from .render import render_program, render_workflow_program


class PythonAdapter(PythonAdapterBase):
    """Prompt, rendering and grammar for requests or httpx; extraction, sandboxed execution (the
    harness of :mod:`.harness`) and normalisation from :class:`wapii_core.kits.python.PythonAdapterBase`."""

    harness = HARNESS
    preload = PRELOAD
    warmup = WARMUP

    def prompt(self, sample: Sample, setup: Setup, dataset: Dataset) -> Prompt:
        """The code-generation prompt for ``sample``, ending with the setup's starter code."""
        return build_prompt(self.library, sample, setup, dataset)

    def render(self, config: dict[str, Any], setup: Setup, sample: Sample, mode: str = "wire") -> str:
        """A full program for ``setup`` that issues exactly ``config`` as comparison ``mode`` judges it."""
        return render_program(self.library, config, setup, sample, mode)

    def render_workflow(self, calls: list[dict[str, Any]], sample: Sample) -> str:
        """The oracle's whole program for a workflow task: sends ``calls`` in order, each reference read
        from the answer it names, a 429 sent again after its ``Retry-After``."""
        return render_workflow_program(self.library, calls, sample, self.default_mode)

    def constraint(self, spec: Any, setup: Setup, *, references: bool = True, compact: bool = False) -> Any:
        """The grammar of a legal call to the API of ``spec`` for constrained decoding (see grammar.py)."""
        from .grammar import constraint

        return constraint(spec, setup, self.name, references=references, compact=compact)


def requests_adapter(**options: Any) -> PythonAdapter:
    """The ``requests_py`` adapter (captured with ``responses``)."""
    return PythonAdapter(REQUESTS, **options)


def httpx_adapter(**options: Any) -> PythonAdapter:
    """The ``httpx_py`` adapter (sync and async clients, captured with ``respx``)."""
    return PythonAdapter(HTTPX, **options)
