"""Writing a program that issues a given request config (the ``oracle`` backend's source).

The call is the one a careful programmer writes for that library: the body by its kind (``json=``,
``data=`` for a form, ``files=`` with ``(None, value)`` parts for multipart), the ``Content-Type``
header left to the library when the library sets exactly that type (a multipart body needs the
library's boundary), and query values written so that the library sends what the API expects:
``requests`` writes ``True`` as ``True``, so for the ``wire`` mode (what is sent) a boolean is
passed as the string ``'true'``, while for the ``reference`` / ``strict`` modes (values as the code
wrote them) it stays ``True``; httpx already sends ``true``. A float with an integral value is written as an integer (Python would send
``1.0`` where JavaScript sends ``1``). Form and multipart fields are strings, as they are sent.
"""

from __future__ import annotations

from typing import Any

from wapii_core.api import Sample, Setup
from wapii_core.kits.wire import wire_text
from wapii_core.kits.python import (
    PYTHON_REQUEST_METHODS, PythonLibrary, py_call_arguments, py_literal, py_string, py_whole_number,
    render_py_workflow,
)

from .prompt import starter_code


def _query_value(library: PythonLibrary, value: Any, mode: str) -> Any:
    if isinstance(value, list):
        return [_query_value(library, item, mode) for item in value]
    if isinstance(value, bool) and library.module == "requests" and mode == "wire":
        return wire_text(value)
    return py_whole_number(value)


def call_arguments(library: PythonLibrary, config: dict[str, Any], mode: str = "wire") -> list[str]:
    """The keyword arguments after the URL, as Python source, for judging in comparison ``mode``."""
    args, kind = py_call_arguments(config, lambda value: _query_value(library, value, mode))
    data = config.get("data")
    if kind == "multipart":
        parts = ", ".join(f"{py_string(str(key))}: (None, {py_string(wire_text(value))})" for key, value in data.items())
        args.append(f"files={{{parts}}}")
    elif kind == "raw":
        args.append(f"content={py_literal(data)}" if library.module == "httpx" else f"data={py_literal(data)}")
    return args


def _shorthand(library: PythonLibrary, config: dict[str, Any]) -> str | None:
    method = str(config["method"]).lower()
    if method not in PYTHON_REQUEST_METHODS:
        return None
    if config.get("data") is not None and method in library.bodyless_shorthands:
        return None
    return method


def render_call(library: PythonLibrary, config: dict[str, Any], mode: str = "wire") -> str:
    """The call without the leading ``<module>.``: ``get('…', …)``, or ``request('METHOD', '…', …)``."""
    url = py_string(config["url"])
    args = call_arguments(library, config, mode)
    method = _shorthand(library, config)
    if method is not None:
        return f"{method}(" + ", ".join([url, *args]) + ")"
    return "request(" + ", ".join([py_string(str(config["method"]).upper()), url, *args]) + ")"


def render_program(library: PythonLibrary, config: dict[str, Any], setup: Setup, sample: Sample,
                   mode: str = "wire") -> str:
    """A full program (starter code of ``setup`` + completion) that issues exactly ``config`` as judged in ``mode``."""
    starter = starter_code(library, sample, setup)
    if setup is Setup.argument:
        fixed = (sample.config["method"], sample.config["url"])
        if (config["method"], config["url"]) != fixed:
            raise ValueError(f"the argument setup fixes method and URL to {fixed}; cannot render {config['method']} {config['url']}")
        if _shorthand(library, config) != str(config["method"]).lower():
            raise ValueError(f"{library.module}.{config['method']} cannot send this request (no such shorthand or no body argument)")
        return starter + " " + ", ".join(call_arguments(library, config, mode)) + ")\n"
    call = render_call(library, config, mode) + "\n"
    if setup is Setup.full:
        return starter + call
    return starter + f"\n{library.module}." + call


WORKFLOW_HELPER = """\
import time


def send(request):
    \"\"\"Sends a request (again after the wait a 429 answer asks for, at most 5 times); returns the JSON answer.\"\"\"
    for attempt in range(6):
        response = request()
        if response.status_code == 429 and attempt < 5:
            time.sleep(float(response.headers.get('Retry-After', 1)))
            continue
        response.raise_for_status()
        return response.json() if response.content else None
"""
"""The workflow program's ``send``, the same for requests and httpx (``raise_for_status`` fails any other status of 400 or above)."""


def render_workflow_program(library: PythonLibrary, calls: list[dict[str, Any]], sample: Sample, mode: str = "wire") -> str:
    """The oracle's whole program for a workflow task: each call as :func:`render_call` writes it for
    ``mode``, its references read from the earlier answers (:func:`wapii_core.kits.python.render_py_workflow`)."""
    return render_py_workflow(starter_code(library, sample, Setup.workflow), WORKFLOW_HELPER, calls,
                              lambda config: f"{library.module}." + render_call(library, config, mode))
