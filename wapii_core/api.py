"""The plugin API: everything a wapii plugin may import, and nothing else.

A plugin (backend, adapter, metric provider, dataset, command) imports from this module only::

    from wapii_core.api import Generation, GenerationRequest, hookimpl, WapiiError

Names are imported on first use (a sandboxed worker or ``wapii --help`` stays small), so
``from wapii_core.api import X`` costs only the modules X needs. Everything not listed here is
internal and may change in any release; a test fails if a built-in plugin imports around it, and
one fails if a name here is neither used by a built-in plugin nor documented for plugin authors
(``docs/plugins.md``).

:data:`API_VERSION` versions these names and the protocols' members the semver way (``docs/changelog.md``
lists every version's changes).
"""

from __future__ import annotations

from wapii_core.base.lazy import lazy_exports

API_VERSION = "1.7"
"""The plugin API's version, ``MAJOR.MINOR``: MINOR grows when names or optional protocol members are
added (a plugin written for 1.0 works with every 1.x); MAJOR grows when a name is removed or renamed,
or a signature or protocol changes incompatibly."""

_WHERE: dict[str, str] = {
    # Hooks and registration.
    "hookimpl": "wapii_core.base.hookspecs",
    # Records exchanged with the core.
    "Setup": "wapii_core.base.model", "Sample": "wapii_core.base.model", "Prompt": "wapii_core.base.model",
    "GenerationRequest": "wapii_core.base.model", "Generation": "wapii_core.base.model",
    "GenerationTimings": "wapii_core.base.model", "ChatMessage": "wapii_core.base.model",
    "Extraction": "wapii_core.base.model", "Capture": "wapii_core.base.model", "SampleResult": "wapii_core.base.model",
    "Reference": "wapii_core.base.references",
    # Protocols a plugin implements, and what the core passes to it.
    "Backend": "wapii_core.base.protocols", "Adapter": "wapii_core.base.protocols",
    "MetricProvider": "wapii_core.base.protocols", "Dataset": "wapii_core.base.protocols",
    "BackendOptions": "wapii_core.base.protocols", "RunContext": "wapii_core.base.protocols",
    # Errors.
    "WapiiError": "wapii_core.base.errors", "InputError": "wapii_core.base.errors",
    "GenerationPending": "wapii_core.base.errors",
    # The spec index (the judge's view of an OpenAPI description).
    "SpecIndex": "wapii_core.openapi.index",
    # Files and caches.
    # Text: one line, cut to a length (error messages, stored details).
    "shortened_line": "wapii_core.base.text",
    "cache_dir": "wapii_core.base.paths", "bundled_specs_dir": "wapii_core.base.paths",
    "write_atomic": "wapii_core.base.atomic", "build_once": "wapii_core.base.staged_dir",
    "GenerationCache": "wapii_core.generation.gencache", "CachedAnswer": "wapii_core.generation.gencache",
    "cache_key": "wapii_core.generation.gencache",
    # The sandbox for generated code.
    "Isolation": "wapii_core.sandbox",
    "env_prefix": "wapii_core.base.workers", "worker_settings": "wapii_core.base.workers",
    "PythonPool": "wapii_core.sandbox", "SnippetResult": "wapii_core.sandbox", "NoRequest": "wapii_core.sandbox",
    "ProgramPool": "wapii_core.sandbox", "ProgramResult": "wapii_core.sandbox",
    "CompileBudget": "wapii_core.sandbox.compile_budget", "CompilerRun": "wapii_core.sandbox.compile_budget",
    "CompileAttempt": "wapii_core.sandbox.compile_budget", "run_compiler": "wapii_core.sandbox.compile_budget",
    "isolate_failures": "wapii_core.sandbox.compile_budget",
    "NodeLibrary": "wapii_core.sandbox.node",
    "NodeRunner": "wapii_core.sandbox.node",
    "to_capture": "wapii_core.sandbox.node",
    "WireRequest": "wapii_core.sandbox.wire_capture", "raw_bytes": "wapii_core.judge.wire_bodies", "WireError": "wapii_core.sandbox.wire_capture",
    "body_record": "wapii_core.pyhttp.recording",
    "parse_requests": "wapii_core.sandbox.wire_capture", "send_request": "wapii_core.sandbox.wire_capture",
    # Answered requests: a harness sends a request and gets its responder's answer (None: nothing answers).
    "exchange": "wapii_core.sandbox.wire_capture", "answering": "wapii_core.sandbox.wire_capture",
    "WireResponse": "wapii_core.sandbox.wire_capture", "serialise_response": "wapii_core.sandbox.wire_capture",
    # The mock stage's exchange types: what a responder takes and gives, and what the record keeps.
    "MockRequest": "wapii_core.mock.exchange", "MockResponse": "wapii_core.mock.exchange",
    "Responder": "wapii_core.mock.exchange", "EmptyResponder": "wapii_core.mock.exchange",
    "Exchange": "wapii_core.base.model",
    # Wire-mode helpers (judging what was sent, byte for byte).
    "wire_text": "wapii_core.judge.wire",
    "normalise_wire_request": "wapii_core.judge.sent_request", "sends_as_text": "wapii_core.judge.sent_request",
    # Tasks inside real code (the journal edition's real-world dataset).
    "context_prompt": "wapii_core.generation.code_context", "context_starter": "wapii_core.generation.code_context",
    "context_template": "wapii_core.generation.code_context",
    "js_literal": "wapii_core.generation.js_literal",
    "js_string": "wapii_core.generation.js_literal",
    "media_type": "wapii_core.base.media",
    "is_json": "wapii_core.base.media",
    "header_value": "wapii_core.base.media",
    "FORM_TYPE": "wapii_core.base.media",
    "MULTIPART_TYPE": "wapii_core.base.media",
    # Constrained decoding: grammar building blocks.
    "Constraint": "wapii_core.grammar", "adapter_constraint": "wapii_core.grammar",
    "Api": "wapii_core.grammar.endpoints", "Endpoint": "wapii_core.grammar.endpoints",
    "load_api": "wapii_core.grammar.endpoints",
    "LarkWriter": "wapii_core.grammar.lark", "Entry": "wapii_core.grammar.lark", "WS": "wapii_core.grammar.lark",
    "FREE_WHITESPACE": "wapii_core.grammar.lark", "COMPACT_WHITESPACE": "wapii_core.grammar.lark",
    "alternatives": "wapii_core.grammar.lark", "escape": "wapii_core.grammar.lark",
    "literal": "wapii_core.grammar.lark", "regex": "wapii_core.grammar.lark",
    "Int": "wapii_core.grammar.types", "Num": "wapii_core.grammar.types", "Str": "wapii_core.grammar.types",
    "Obj": "wapii_core.grammar.types", "Prop": "wapii_core.grammar.types", "VType": "wapii_core.grammar.types",
    "as_header": "wapii_core.grammar.types",
    "Dialect": "wapii_core.grammar.values", "ValueRules": "wapii_core.grammar.values",
    "header_literal": "wapii_core.grammar.values", "path_value_chars": "wapii_core.grammar.values",
    "path_text": "wapii_core.grammar.values", "PATH_ESCAPE": "wapii_core.grammar.values",
    "RunConstraints": "wapii_core.grammar.run_constraints", "is_constrained": "wapii_core.grammar.run_constraints",
    "get_engine": "wapii_core.grammar", "Engine": "wapii_core.grammar",
    "Arr": "wapii_core.grammar.types",
    "Bool": "wapii_core.grammar.types",
    "OneOf": "wapii_core.grammar.types",
    "Row": "wapii_core.grammar.run_constraints",
    # What every model backend shares: decoding options (-O), chat messages, answer to program.
    "DecodingOptions": "wapii_core.generation.options",
    "parse_options": "wapii_core.generation.options",
    "STOP": "wapii_core.generation.programs",
    "is_chat_model": "wapii_core.generation.programs",
    "chat_messages": "wapii_core.generation.programs",
    "with_extra_instructions": "wapii_core.generation.programs",
    "prefill_messages": "wapii_core.generation.programs",
    "model_input": "wapii_core.generation.programs",
    "call_complete_predicate": "wapii_core.generation.call_stop",
    "cut_at_stop": "wapii_core.generation.programs",
    "continuation_program": "wapii_core.generation.programs",
    "chat_program": "wapii_core.generation.programs",
    # Metric providers: what each value is (rate, count, mean) and means.
    "Metric": "wapii_core.base.metric_kinds",
    # What an adapter declares it can do (language, single call, constrained decoding, modes).
    "AdapterCapabilities": "wapii_core.base.capabilities",
    # The conformance kit an adapter runs on itself (oracle, replay corpora, hostile programs).
    "check_adapter": "wapii_core.run.conformance", "ConformanceReport": "wapii_core.run.conformance",
    "CheckOutcome": "wapii_core.run.conformance", "ReplayCorpus": "wapii_core.run.conformance",
    "HostileProgram": "wapii_core.run.conformance",
    "exchange_check": "wapii_core.run.conformance", "ExchangeProgram": "wapii_core.run.conformance",
    "CreateReadResponder": "wapii_core.run.conformance",
    # Workflow tasks (docs/workflows.md): the prompt every adapter words alike, the oracle's programs.
    "workflow_prompt": "wapii_core.generation.workflow_prompt",
    "workflow_starter": "wapii_core.generation.workflow_prompt",
    "render_js_workflow": "wapii_core.sandbox.node.workflow", "extract_js_program": "wapii_core.sandbox.node.workflow",
    "render_py_workflow": "wapii_core.pyhttp.workflow",
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
    "UrlTrie": "wapii_core.grammar.urls", "unshadowed": "wapii_core.grammar.urls",
    "js_escape": "wapii_core.grammar.javascript",
    "QUOTES": "wapii_core.grammar.javascript",
    "EXPRESSION": "wapii_core.grammar.javascript",
    "Null": "wapii_core.grammar.types",
    # Python adapters: the shared machinery (wapii_core.pyhttp) and the grammar's Python dialect.
    "PythonLibrary": "wapii_core.pyhttp.library",
    "PYTHON_REQUEST_METHODS": "wapii_core.pyhttp.library",
    "PythonAdapterBase": "wapii_core.pyhttp.adapter",
    "RequestMessage": "wapii_core.pyhttp.recording",
    "RequestIssued": "wapii_core.pyhttp.harness",
    "run_until_request": "wapii_core.pyhttp.harness",
    "py_literal": "wapii_core.pyhttp.pyliteral",
    "py_string": "wapii_core.pyhttp.pyliteral",
    "py_whole_number": "wapii_core.pyhttp.render",
    "py_call_arguments": "wapii_core.pyhttp.render",
    "PythonCallGrammar": "wapii_core.pyhttp.grammar",
    # Java adapters: the JDK, Java source, the sandboxed JVM runner, the shared adapter base.
    "JavaAdapterBase": "wapii_core.jvm.adapter",
    "JavaLibrary": "wapii_core.jvm.support",
    "extract_java_call": "wapii_core.jvm.javasource",
    "java_string": "wapii_core.jvm.javasource",
    "find_jdk": "wapii_core.jvm.toolchain",
    "find_runtime": "wapii_core.jvm.toolchain",
    "java_body_text": "wapii_core.jvm.render",
    "java_header_text": "wapii_core.jvm.render",
    "JavaProgram": "wapii_core.jvm.program",
}
"""Where each public name lives (imported on first use)."""

__all__ = sorted([*_WHERE, "API_VERSION"])


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, "wapii_core.api has no {name!r}: it is not part of the plugin API")
