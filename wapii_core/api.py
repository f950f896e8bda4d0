"""The plugin API: everything a wapii plugin may import, and nothing else.

A plugin (backend, adapter, metric provider, dataset, command) imports from this module only::

    from wapii_core.api import Generation, GenerationRequest, hookimpl, WapiiError

Names are imported on first use (a sandboxed worker or ``wapii --help`` stays small), so
``from wapii_core.api import X`` costs only the modules X needs. Everything not listed here is
internal and may change in any release; a test fails if a built-in plugin imports around it.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE: dict[str, str] = {
    # Hooks and registration.
    "hookimpl": "wapii_core.hookspecs",
    # Records exchanged with the core.
    "Setup": "wapii_core.model", "Sample": "wapii_core.model", "Prompt": "wapii_core.model",
    "GenerationRequest": "wapii_core.model", "Generation": "wapii_core.model",
    "Extraction": "wapii_core.model", "Capture": "wapii_core.model", "SampleResult": "wapii_core.model",
    "FIELDS": "wapii_core.model", "SPECIAL_HEADERS": "wapii_core.model", "ERROR_KINDS": "wapii_core.model",
    # Protocols a plugin implements, and what the core passes to it.
    "Backend": "wapii_core.protocols", "Adapter": "wapii_core.protocols",
    "MetricProvider": "wapii_core.protocols", "Dataset": "wapii_core.protocols",
    "BackendOptions": "wapii_core.protocols", "RunContext": "wapii_core.protocols",
    # Errors.
    "WapiiError": "wapii_core.errors", "InputError": "wapii_core.errors",
    "MissingToolError": "wapii_core.errors", "GenerationPending": "wapii_core.errors",
    # The spec index (the judge's view of an OpenAPI description).
    "SpecIndex": "wapii_core.spec",
    # Files and caches.
    "cache_dir": "wapii_core.paths", "write_atomic": "wapii_core.store",
    "GenerationCache": "wapii_core.gencache", "CachedAnswer": "wapii_core.gencache",
    "cache_key": "wapii_core.gencache",
    # The sandbox for generated code.
    "Isolation": "wapii_core.sandbox", "Layer": "wapii_core.sandbox", "Limits": "wapii_core.sandbox",
    "GiB": "wapii_core.sandbox", "MiB": "wapii_core.sandbox", "Program": "wapii_core.sandbox",
    "plan": "wapii_core.sandbox", "enforce": "wapii_core.sandbox", "clean_env": "wapii_core.sandbox",
    "Supervisor": "wapii_core.sandbox", "WorkerStartError": "wapii_core.sandbox",
    "default_worker_count": "wapii_core.sandbox",
    "PythonPool": "wapii_core.sandbox", "SnippetResult": "wapii_core.sandbox", "NoRequest": "wapii_core.sandbox",
    "WireRequest": "wapii_core.sandbox.wire_capture", "WireError": "wapii_core.sandbox.wire_capture",
    "parse_requests": "wapii_core.sandbox.wire_capture", "send_request": "wapii_core.sandbox.wire_capture",
    # Wire-mode helpers (judging what was sent, byte for byte).
    "wire_text": "wapii_core.wire", "judge_wire": "wapii_core.wire",
    # Constrained decoding: grammar building blocks.
    "Constraint": "wapii_core.grammar", "cached": "wapii_core.grammar",
    "Api": "wapii_core.grammar.endpoints", "Endpoint": "wapii_core.grammar.endpoints",
    "load_api": "wapii_core.grammar.endpoints",
    "LarkWriter": "wapii_core.grammar.lark", "Entry": "wapii_core.grammar.lark", "WS": "wapii_core.grammar.lark",
    "FREE_WHITESPACE": "wapii_core.grammar.lark", "COMPACT_WHITESPACE": "wapii_core.grammar.lark",
    "alternatives": "wapii_core.grammar.lark", "escape": "wapii_core.grammar.lark",
    "literal": "wapii_core.grammar.lark", "regex": "wapii_core.grammar.lark", "sequence": "wapii_core.grammar.lark",
    "Int": "wapii_core.grammar.types", "Num": "wapii_core.grammar.types", "Str": "wapii_core.grammar.types",
    "Obj": "wapii_core.grammar.types", "Prop": "wapii_core.grammar.types", "VType": "wapii_core.grammar.types",
    "as_header": "wapii_core.grammar.types",
    "Dialect": "wapii_core.grammar.values", "ValueRules": "wapii_core.grammar.values",
    "header_literal": "wapii_core.grammar.values", "path_value_chars": "wapii_core.grammar.values",
    "RunConstraints": "wapii_core.grammar.per_request", "is_constrained": "wapii_core.grammar.per_request",
    "get_engine": "wapii_core.grammar", "Engine": "wapii_core.grammar", "Matcher": "wapii_core.grammar",
    # Python HTTP-library adapters: what requests_py, httpx_py and aiohttp_py share.
    "PythonLibrary": "wapii_core.pyhttp.library",
    "PYTHON_REQUEST_METHODS": "wapii_core.pyhttp.library",
    "PythonAdapterBase": "wapii_core.pyhttp.adapter",
    "extract_python_call": "wapii_core.pyhttp.extract",
    "normalise_python_request": "wapii_core.pyhttp.normalise",
    "python_capture": "wapii_core.pyhttp.capture",
    "written_query": "wapii_core.pyhttp.written",
    "RequestMessage": "wapii_core.pyhttp.recording",
    "RequestIssued": "wapii_core.pyhttp.harness",
    "run_until_request": "wapii_core.pyhttp.harness",
    "py_literal": "wapii_core.pyhttp.pyliteral",
    "py_string": "wapii_core.pyhttp.pyliteral",
    "py_body_kind": "wapii_core.pyhttp.render",
    "py_code_headers": "wapii_core.pyhttp.render",
    "py_form_value": "wapii_core.pyhttp.render",
    "py_whole_number": "wapii_core.pyhttp.render",
    "decode_body": "wapii_core.pyhttp.bodies",
    "parse_query": "wapii_core.pyhttp.bodies",
    "PythonCallGrammar": "wapii_core.grammar.python",
    "accepts": "wapii_core.grammar",
}
"""Where each public name lives (imported on first use)."""

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"wapii_core.api has no {name!r}: it is not part of the plugin API")
    value = getattr(importlib.import_module(_WHERE[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
