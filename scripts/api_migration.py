#!/usr/bin/env python3
"""Writes plugin API 2.0's migration table into docs/changelog.md: every name of ``wapii_core.api`` 1.x
and where it is since 2.0 (still the face, a kit, or ``wapii_core.testing``), read from the modules
themselves, so the table cannot name a home that lacks the name.

    .venv/bin/python scripts/api_migration.py           # rewrite the table
    .venv/bin/python scripts/api_migration.py --check   # exit 1 if the changelog's table differs

``tests/test_plugin_api.py`` runs the check.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

CHANGELOG = Path(__file__).resolve().parent.parent / "docs" / "changelog.md"
START, END = "<!-- migration-table -->", "<!-- /migration-table -->"

API_1_NAMES = (
    "API_VERSION", "Adapter", "AdapterCapabilities", "Api", "Arr", "Backend", "BackendOptions", "Bool",
    "COMPACT_WHITESPACE", "CachedAnswer", "Capture", "ChatMessage", "CheckOutcome", "CompileAttempt",
    "CompileBudget", "CompilerRun", "ConformanceReport", "Constraint", "CreateReadResponder", "Dataset",
    "DecodingOptions", "Dialect", "EXPRESSION", "EmptyResponder", "Endpoint", "Engine", "Entry", "Exchange",
    "ExchangeProgram", "Extraction", "FORM_TYPE", "FREE_WHITESPACE", "Generation", "GenerationCache",
    "GenerationPending", "GenerationRequest", "GenerationTimings", "HostileProgram", "InputError", "Int",
    "Isolation", "JavaAdapterBase", "JavaLibrary", "JavaProgram", "JavaScript", "JavaScriptUrl", "LarkWriter",
    "MULTIPART_TYPE", "Metric", "MetricProvider", "MockRequest", "MockResponse", "NoRequest", "NodeAdapterBase",
    "NodeLibrary", "NodeRunner", "Null", "Num", "Obj", "OneOf", "PATH_ESCAPE", "PYTHON_REQUEST_METHODS",
    "ProgramPool", "ProgramResult", "Prompt", "Prop", "PythonAdapterBase", "PythonCallGrammar", "PythonLibrary",
    "PythonPool", "QUOTES", "Reference", "ReplayCorpus", "RequestIssued", "RequestMessage", "Responder", "Row",
    "RunConstraints", "RunContext", "STOP", "Sample", "SampleResult", "Setup", "SnippetResult", "SpecIndex", "Str",
    "TIMEOUT_MARKER", "UNSATISFIABLE_MARKER", "UrlTrie", "VType", "ValueRules", "WS", "WapiiError", "WireError",
    "WireRequest", "WireResponse", "adapter_constraint", "alternatives", "answering", "as_header", "body_record",
    "build_once", "bundled_specs_dir", "cache_dir", "cache_key", "call_complete_predicate", "chat_messages",
    "chat_program", "check_adapter", "context_prompt", "context_starter", "context_template", "continuation_program",
    "cut_at_stop", "cut_offs", "env_prefix", "escape", "exchange", "exchange_check", "extract_java_call",
    "extract_js_call", "extract_js_program", "find_jdk", "find_runtime", "get_engine", "header_literal",
    "header_value", "hookimpl", "is_chat_model", "is_constrained", "is_json", "isolate_failures", "java_body_text",
    "java_header_text", "java_string", "js_escape", "js_literal", "js_string", "judged_text", "literal", "load_api",
    "load_dataset_dir", "media_type", "model_input", "normalise_wire_request", "parse_options", "parse_requests",
    "path_text", "path_value", "path_value_chars", "prefill_messages", "py_call_arguments", "py_literal",
    "py_string", "py_whole_number", "raw_bytes", "regex", "render_js_workflow", "render_py_workflow", "run_compiler",
    "run_until_request", "send_request", "sends_as_text", "serialise_response", "shadowed_urls", "shortened_line",
    "to_capture", "unshadowed", "url_forms", "url_regex", "wire_text", "with_extra_instructions", "worker_settings",
    "workflow_prompt", "workflow_starter", "write_atomic",
)
"""Every name ``wapii_core.api`` exported in 1.7, the last 1.x (history: it does not change)."""


def new_home(name: str) -> str:
    """The module a 1.x name is imported from since 2.0."""
    from wapii_core import api

    home = "wapii_core.api" if name in api.__all__ else api.moved_to(name)
    if home is None:
        raise SystemExit(f"error: plugin API 1.x name {name!r} has no home in 2.0 (add it to a kit or the face)")
    return home


def table() -> str:
    """The migration table, Markdown: one row per 1.x name, grouped by its new home."""
    rows = sorted((new_home(name), name) for name in API_1_NAMES)
    out = ["| 1.x: `from wapii_core.api import ...` | 2.0: import it from |", "|---|---|"]
    out += [f"| `{name}` | `{home}` |" for home, name in rows]
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the changelog's table is not current")
    args = parser.parse_args()
    text = CHANGELOG.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    current = f"{head}{START}\n{table()}{END}{tail}"
    if args.check:
        if current != text:
            print("docs/changelog.md's migration table is not current: run .venv/bin/python scripts/api_migration.py",
                  file=sys.stderr)
            return 1
        return 0
    CHANGELOG.write_text(current, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
