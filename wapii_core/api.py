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
    "hookimpl": "wapii_core.base.hookspecs",
    # Records exchanged with the core.
    "Setup": "wapii_core.base.model", "Sample": "wapii_core.base.model", "Prompt": "wapii_core.base.model",
    "GenerationRequest": "wapii_core.base.model", "Generation": "wapii_core.base.model",
    "GenerationTimings": "wapii_core.base.model", "ChatMessage": "wapii_core.base.model",
    "Extraction": "wapii_core.base.model", "Capture": "wapii_core.base.model", "SampleResult": "wapii_core.base.model",
    "FIELDS": "wapii_core.base.model", "SPECIAL_HEADERS": "wapii_core.base.model", "ERROR_KINDS": "wapii_core.base.model",
    # Protocols a plugin implements, and what the core passes to it.
    "Backend": "wapii_core.base.protocols", "Adapter": "wapii_core.base.protocols",
    "MetricProvider": "wapii_core.base.protocols", "Dataset": "wapii_core.base.protocols",
    "BackendOptions": "wapii_core.base.protocols", "RunContext": "wapii_core.base.protocols",
    # Errors.
    "WapiiError": "wapii_core.base.errors", "InputError": "wapii_core.base.errors",
    "MissingToolError": "wapii_core.base.errors", "GenerationPending": "wapii_core.base.errors",
    # The spec index (the judge's view of an OpenAPI description).
    "SpecIndex": "wapii_core.spec.index",
    # Files and caches.
    "cache_dir": "wapii_core.base.paths", "write_atomic": "wapii_core.store.rundir",
    "GenerationCache": "wapii_core.generation.gencache", "CachedAnswer": "wapii_core.generation.gencache",
    "cache_key": "wapii_core.generation.gencache",
    # The sandbox for generated code.
    "Isolation": "wapii_core.sandbox", "Layer": "wapii_core.sandbox", "Limits": "wapii_core.sandbox",
    "GiB": "wapii_core.sandbox", "MiB": "wapii_core.sandbox", "Program": "wapii_core.sandbox",
    "plan": "wapii_core.sandbox", "enforce": "wapii_core.sandbox", "clean_env": "wapii_core.sandbox",
    "Supervisor": "wapii_core.sandbox", "WorkerStartError": "wapii_core.sandbox",
    "default_worker_count": "wapii_core.sandbox",
    "PythonPool": "wapii_core.sandbox", "SnippetResult": "wapii_core.sandbox", "NoRequest": "wapii_core.sandbox",
    "ProgramPool": "wapii_core.sandbox", "ProgramResult": "wapii_core.sandbox",
    "NodeLibrary": "wapii_core.sandbox.node",
    "NodePool": "wapii_core.sandbox.node",
    "NodeRunner": "wapii_core.sandbox.node",
    "ensure_runtime": "wapii_core.sandbox.node",
    "find_node": "wapii_core.sandbox.node",
    "to_capture": "wapii_core.sandbox.node",
    "BAD_CAPTURE": "wapii_core.sandbox.node",
    "WireRequest": "wapii_core.sandbox.wire_capture", "WireError": "wapii_core.sandbox.wire_capture",
    "parse_requests": "wapii_core.sandbox.wire_capture", "send_request": "wapii_core.sandbox.wire_capture",
    # Wire-mode helpers (judging what was sent, byte for byte).
    "wire_text": "wapii_core.judge.wire", "judge_wire": "wapii_core.judge.wire",
    "js_literal": "wapii_core.generation.js_literal",
    "js_string": "wapii_core.generation.js_literal",
    "decode_body": "wapii_core.judge.wire_bodies",
    "parse_query": "wapii_core.judge.wire_bodies",
    "raw_bytes": "wapii_core.judge.wire_bodies",
    "media_type": "wapii_core.judge.wire_bodies",
    "is_json": "wapii_core.judge.wire_bodies",
    "FORM_TYPE": "wapii_core.judge.wire_bodies",
    "MULTIPART_TYPE": "wapii_core.judge.wire_bodies",
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
    "path_text": "wapii_core.grammar.values", "PATH_ESCAPE": "wapii_core.grammar.values",
    "RunConstraints": "wapii_core.grammar.per_request", "is_constrained": "wapii_core.grammar.per_request",
    "get_engine": "wapii_core.grammar", "Engine": "wapii_core.grammar", "Matcher": "wapii_core.grammar",
    "accepts": "wapii_core.grammar",
    "allowed_prefix": "wapii_core.grammar",
    "Arr": "wapii_core.grammar.types",
    "Bool": "wapii_core.grammar.types",
    "OneOf": "wapii_core.grammar.types",
    "one_of": "wapii_core.grammar.types",
    "STRING": "wapii_core.grammar.types",
    "HEADER_STRING": "wapii_core.grammar.types",
    "NULL": "wapii_core.grammar.types",
    "Row": "wapii_core.grammar.per_request",
    # Files and values.
    "bundled_specs_dir": "wapii_core.base.paths",
    "unstorable": "wapii_core.base.jsonwalk",
    # What every model backend shares: decoding options (-O), chat messages, answer to program.
    "DecodingOptions": "wapii_core.generation.options",
    "parse_options": "wapii_core.generation.options",
    "SAMPLED_TEMPERATURE": "wapii_core.generation.options",
    "STOP": "wapii_core.generation.programs",
    "INSTRUCT_EXTRA": "wapii_core.generation.programs",
    "is_chat_model": "wapii_core.generation.programs",
    "chat_messages": "wapii_core.generation.programs",
    "with_extra_instructions": "wapii_core.generation.programs",
    "prefill_messages": "wapii_core.generation.programs",
    "cut_at_stop": "wapii_core.generation.programs",
    "continuation_program": "wapii_core.generation.programs",
    "strip_role_marker": "wapii_core.generation.programs",
    "code_of": "wapii_core.generation.programs",
    "chat_program": "wapii_core.generation.programs",
    # Metric providers: what each value is (rate, count, mean) and means.
    "Metric": "wapii_core.base.metric_kinds",
    "MetricKind": "wapii_core.base.metric_kinds",
    # The comparison modes a run is judged in.
    "MODES": "wapii_core.base.protocols",
    # Datasets a plugin ships: read a directory in the WAPIIBench layout.
    "load_dataset_dir": "wapii_core.datasets.loader",
    # JavaScript adapters: extraction of the first call, the grammar dialect and literals.
    "extract_js_call": "wapii_core.generation.js_extract",
    "cut_offs": "wapii_core.generation.js_extract",
    "TIMEOUT_MARKER": "wapii_core.generation.js_extract",
    "UNSATISFIABLE_MARKER": "wapii_core.generation.js_extract",
    "NodeAdapterBase": "wapii_core.sandbox.node.adapter",
    "JavaScript": "wapii_core.grammar.javascript",
    "path_value": "wapii_core.grammar.javascript",
    "url_forms": "wapii_core.grammar.javascript",
    "url_regex": "wapii_core.grammar.javascript",
    "shadowed_urls": "wapii_core.grammar.javascript", "judged_text": "wapii_core.grammar.javascript",
    "JavaScriptUrl": "wapii_core.grammar.javascript",
    "UrlTrie": "wapii_core.grammar.urls",
    "js_escape": "wapii_core.grammar.javascript",
    "QUOTES": "wapii_core.grammar.javascript",
    "EXPRESSION": "wapii_core.grammar.javascript",
    "Null": "wapii_core.grammar.types",
    # Python adapters: the shared machinery (wapii_core.pyhttp) and the grammar's Python dialect.
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
    "PythonCallGrammar": "wapii_core.pyhttp.grammar",
    # Java adapters: the JDK, Java source, the sandboxed JVM runner, the shared adapter base.
    "JavaAdapterBase": "wapii_core.jvm.adapter",
    "java_capture": "wapii_core.jvm.adapter",
    "JavaLibrary": "wapii_core.jvm.runner",
    "JavaRunner": "wapii_core.jvm.runner",
    "extract_java_call": "wapii_core.jvm.javasource",
    "java_string": "wapii_core.jvm.javasource",
    "find_jdk": "wapii_core.jvm.toolchain",
    "java_body_text": "wapii_core.jvm.render",
    "java_encoded_url": "wapii_core.jvm.render",
    "java_header_text": "wapii_core.jvm.render",
    "java_query_string": "wapii_core.jvm.render",
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
