"""The ``fetch_js`` adapter: JavaScript programs that call a web API through the built-in ``fetch``."""

from __future__ import annotations

from typing import Any

from wapii_core.api import AdapterCapabilities, Dataset, Extraction, Prompt, Sample, Setup
from wapii_core.kits.node import NodeAdapterBase, extract_js_program

from .extract import CALL_START, extract_call
from .normalise import normalise_record
from .prompt import build_prompt
from .render import render_program, render_workflow_program
from .runtime import FetchRecord, library


class FetchAdapter(NodeAdapterBase):
    """Prompt, extraction, sandboxed execution, normalisation and rendering for fetch (Node.js).

    Calls run in wapii's sandboxed JavaScript runtime (``wapii_core.kits.node.NodeRunner``; fetch's side
    is ``runtime.py`` and ``js/hook.js``), which records each request as fetch serialised it. Judged
    by default in ``wire`` mode (:attr:`default_mode`): what fetch sends is strings.

    ``workers`` (default: one per CPU, or ``$WAPII_FETCH_JS_WORKERS``) Node processes execute the
    calls; each call gets ``timeout_s`` seconds of wall time (default 2, or ``$WAPII_FETCH_JS_TIMEOUT``);
    a call that sends several requests is judged by the first one (``keep_request``, or
    ``$WAPII_FETCH_JS_KEEP_REQUEST``: ``"first"`` or ``"last"``).
    """

    name = "fetch_js"
    default_mode = "wire"
    capabilities = AdapterCapabilities(language="javascript", library="fetch", constrained=True, wire_capture=True,
                                       answers=True, code_context=True, workflows=True)

    node_library = staticmethod(library)
    record = FetchRecord
    env_prefix = "WAPII_FETCH_JS"
    default_keep = "first"

    def prompt(self, sample: Sample, setup: Setup, dataset: Dataset) -> Prompt:
        """The code-generation prompt for ``sample``, ending with the setup's starter code."""
        return build_prompt(sample, setup, dataset)

    def extract(self, code: str) -> Extraction:
        """The first fetch call of a full program (metrics.md §2)."""
        return extract_call(code)

    def extract_program(self, code: str) -> Extraction:
        """The whole program of a workflow task as it runs (not cut at its first call)."""
        return extract_js_program(code, CALL_START)

    def normalise(self, request: dict[str, Any]) -> dict[str, Any]:
        """The neutral config of a captured request (metrics.md §3)."""
        return normalise_record(request)

    def render(self, config: dict[str, Any], setup: Setup, sample: Sample, mode: str = "wire") -> str:
        """A full program for ``setup`` that issues exactly ``config`` (the same program for every ``mode``)."""
        return render_program(config, setup, sample)

    def render_workflow(self, calls: list[dict[str, Any]], sample: Sample) -> str:
        """The oracle's whole program for a workflow task: sends ``calls`` in order, each reference read
        from the answer it names, a 429 sent again after its ``Retry-After``."""
        return render_workflow_program(calls, sample)

    def constraint(self, spec: Any, setup: Setup, *, references: bool = True, compact: bool = False) -> Any:
        """The grammar of a legal call to the API of ``spec`` for constrained decoding (see grammar.py)."""
        from .grammar import constraint

        return constraint(spec, setup, references=references, compact=compact)
