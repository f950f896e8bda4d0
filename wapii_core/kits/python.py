"""The Python HTTP kit: what an adapter for a Python HTTP library builds on (``pyhttp``).

The adapter base (a library is a :class:`PythonLibrary` record), the harness that runs a program
until its first request, the pool of sandboxed Python workers, extraction and normalisation of a
call, Python literals, the grammar of a Python call (constrained decoding) and the oracle's
workflow programs.

Names are imported on first use (:func:`wapii_core.base.lazy.lazy_exports`): ``from
wapii_core.kits.python import X`` costs only the modules X needs. :data:`KIT_VERSION` versions this
kit's names the semver way, apart from the plugin API's ``API_VERSION`` (``docs/changelog.md``).
"""

from __future__ import annotations

from wapii_core.base.lazy import lazy_exports

KIT_VERSION = "1.0"
"""This kit's version, ``MAJOR.MINOR``: MINOR grows when names are added, MAJOR when one is
removed or changes incompatibly."""

_WHERE: dict[str, str] = {
    # The adapter base, the library record and the harness.
    "PythonAdapterBase": "wapii_core.pyhttp.adapter",
    "PythonLibrary": "wapii_core.pyhttp.library",
    "PYTHON_REQUEST_METHODS": "wapii_core.pyhttp.library",
    "RequestMessage": "wapii_core.pyhttp.recording",
    "RequestIssued": "wapii_core.pyhttp.harness",
    "run_until_request": "wapii_core.pyhttp.harness",
    # What a harness sends, and the answer it gets (None: nothing answers); wire_text as in kits.wire.
    "send_request": "wapii_core.sandbox.wire_capture",
    "exchange": "wapii_core.sandbox.wire_capture",
    "answering": "wapii_core.sandbox.wire_capture",
    "WireResponse": "wapii_core.sandbox.wire_capture",
    "serialise_response": "wapii_core.sandbox.wire_capture",
    "wire_text": "wapii_core.judge.wire",
    # The sandboxed Python workers.
    "PythonPool": "wapii_core.sandbox",
    "SnippetResult": "wapii_core.sandbox",
    "NoRequest": "wapii_core.sandbox",
    # Extraction and normalisation of a call.
    "extract_python_call": "wapii_core.pyhttp.extract",
    "normalise_python_request": "wapii_core.pyhttp.normalise",
    "written_query": "wapii_core.pyhttp.source_query",
    # Python literals and rendering.
    "py_literal": "wapii_core.pyhttp.pyliteral",
    "py_string": "wapii_core.pyhttp.pyliteral",
    "py_whole_number": "wapii_core.pyhttp.render",
    "py_call_arguments": "wapii_core.pyhttp.render",
    "render_py_workflow": "wapii_core.pyhttp.workflow",
    # The grammar of a Python call (constrained decoding).
    "PythonCallGrammar": "wapii_core.pyhttp.grammar",
}
"""Where each name lives (imported on first use)."""

__all__ = sorted([*_WHERE, "KIT_VERSION"])

__getattr__, __dir__ = lazy_exports(__name__, _WHERE, "wapii_core.kits.python has no {name!r}")
