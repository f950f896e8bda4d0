"""The JavaScript (Node.js) kit: what an adapter for a JavaScript HTTP library builds on.

The sandboxed Node runtime and its adapter base (a library is a :class:`NodeLibrary` record: its
hook script, its words in the prompt), extraction of the first call or the whole program, the
oracle's workflow programs, JavaScript literals, and the constrained-decoding grammar's JavaScript
dialect (URL literals, quotes, expressions).

Names are imported on first use (:func:`wapii_core.base.lazy.lazy_exports`): ``from
wapii_core.kits.node import X`` costs only the modules X needs. :data:`KIT_VERSION` versions this
kit's names the semver way, apart from the plugin API's ``API_VERSION`` (``docs/changelog.md``).
"""

from __future__ import annotations

from wapii_core.base.lazy import lazy_exports

KIT_VERSION = "1.0"
"""This kit's version, ``MAJOR.MINOR``: MINOR grows when names are added, MAJOR when one is
removed or changes incompatibly."""

_WHERE: dict[str, str] = {
    # The runtime and the adapter base.
    "NodeAdapterBase": "wapii_core.sandbox.node.adapter",
    "NodeLibrary": "wapii_core.sandbox.node",
    "NodeRunner": "wapii_core.sandbox.node",
    "to_capture": "wapii_core.sandbox.node",
    "ensure_runtime": "wapii_core.sandbox.node",
    "js_dir": "wapii_core.sandbox.node",
    # Extraction of the first call (or the whole program) from a completion.
    "extract_js_call": "wapii_core.generation.js_extract",
    "cut_offs": "wapii_core.generation.js_extract",
    "TIMEOUT_MARKER": "wapii_core.generation.js_extract",
    "UNSATISFIABLE_MARKER": "wapii_core.generation.js_extract",
    "extract_js_program": "wapii_core.sandbox.node.workflow",
    "render_js_workflow": "wapii_core.sandbox.node.workflow",
    # JavaScript literals.
    "js_literal": "wapii_core.generation.js_literal",
    "js_string": "wapii_core.generation.js_literal",
    # The grammar's JavaScript dialect (constrained decoding).
    "JavaScript": "wapii_core.grammar.javascript",
    "JavaScriptUrl": "wapii_core.grammar.javascript",
    "path_value": "wapii_core.grammar.javascript",
    "url_forms": "wapii_core.grammar.javascript",
    "url_regex": "wapii_core.grammar.javascript",
    "shadowed_urls": "wapii_core.grammar.javascript",
    "judged_text": "wapii_core.grammar.javascript",
    "js_escape": "wapii_core.grammar.javascript",
    "QUOTES": "wapii_core.grammar.javascript",
    "EXPRESSION": "wapii_core.grammar.javascript",
}
"""Where each name lives (imported on first use)."""

__all__ = sorted([*_WHERE, "KIT_VERSION"])

__getattr__, __dir__ = lazy_exports(__name__, _WHERE, "wapii_core.kits.node has no {name!r}")
