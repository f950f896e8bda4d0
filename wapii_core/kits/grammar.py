"""The grammar kit: building blocks for constrained decoding, whatever the language.

A constraint and its engine, the spec's endpoints (and the spec index they are read from), a Lark
grammar writer, value types and their rules, and a run's constraints as the model backends see
them. A language's own dialect is in its kit (``kits.node``'s ``JavaScript``, ``kits.python``'s
``PythonCallGrammar``).

Names are imported on first use (:func:`wapii_core.base.lazy.lazy_exports`): ``from
wapii_core.kits.grammar import X`` costs only the modules X needs. :data:`KIT_VERSION` versions this
kit's names the semver way, apart from the plugin API's ``API_VERSION`` (``docs/changelog.md``).
"""

from __future__ import annotations

from wapii_core.base.lazy import lazy_exports

KIT_VERSION = "1.0"
"""This kit's version, ``MAJOR.MINOR``: MINOR grows when names are added, MAJOR when one is
removed or changes incompatibly."""

_WHERE: dict[str, str] = {
    # Constraints and engines.
    "Constraint": "wapii_core.grammar",
    "adapter_constraint": "wapii_core.grammar",
    "get_engine": "wapii_core.grammar",
    "Engine": "wapii_core.grammar",
    # The spec's endpoints.
    "SpecIndex": "wapii_core.openapi.index",
    "Api": "wapii_core.grammar.endpoints",
    "Endpoint": "wapii_core.grammar.endpoints",
    "load_api": "wapii_core.grammar.endpoints",
    "UrlTrie": "wapii_core.grammar.urls",
    "unshadowed": "wapii_core.grammar.urls",
    # Writing Lark grammars.
    "LarkWriter": "wapii_core.grammar.lark",
    "Entry": "wapii_core.grammar.lark",
    "WS": "wapii_core.grammar.lark",
    "FREE_WHITESPACE": "wapii_core.grammar.lark",
    "COMPACT_WHITESPACE": "wapii_core.grammar.lark",
    "alternatives": "wapii_core.grammar.lark",
    "escape": "wapii_core.grammar.lark",
    "literal": "wapii_core.grammar.lark",
    "regex": "wapii_core.grammar.lark",
    # Value types and their rules.
    "VType": "wapii_core.grammar.types",
    "Int": "wapii_core.grammar.types",
    "Num": "wapii_core.grammar.types",
    "Str": "wapii_core.grammar.types",
    "Bool": "wapii_core.grammar.types",
    "Null": "wapii_core.grammar.types",
    "Arr": "wapii_core.grammar.types",
    "Obj": "wapii_core.grammar.types",
    "Prop": "wapii_core.grammar.types",
    "OneOf": "wapii_core.grammar.types",
    "as_header": "wapii_core.grammar.types",
    "Dialect": "wapii_core.grammar.values",
    "ValueRules": "wapii_core.grammar.values",
    "header_literal": "wapii_core.grammar.values",
    "path_value_chars": "wapii_core.grammar.values",
    "path_text": "wapii_core.grammar.values",
    "PATH_ESCAPE": "wapii_core.grammar.values",
    # A run's constraints, as a model backend sees them.
    "RunConstraints": "wapii_core.grammar.run_constraints",
    "Row": "wapii_core.grammar.run_constraints",
    "is_constrained": "wapii_core.grammar.run_constraints",
}
"""Where each name lives (imported on first use)."""

__all__ = sorted([*_WHERE, "KIT_VERSION"])

__getattr__, __dir__ = lazy_exports(__name__, _WHERE, "wapii_core.kits.grammar has no {name!r}")
