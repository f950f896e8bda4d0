"""Writing a program that issues a given request config with aiohttp (the ``oracle`` backend's source).

The request is the one a careful programmer writes: ``async with session.<method>(url, …) as
response:`` inside a top-level ``async with aiohttp.ClientSession() as session:``. The body by its
kind: ``json=``, ``data=`` a dict for a form, ``data=aiohttp.FormData({…}, default_to_multipart=True)``
for multipart, ``data=`` a string otherwise; the ``Content-Type`` header left to aiohttp when it sets
exactly that type. Query values: aiohttp refuses booleans, so a boolean is the string ``'true'`` /
``'false'`` (what the API expects on the wire, and what reference mode reads as the boolean: see
:mod:`.library`); a float with an integral value is written as an integer (Python would send
``1.0`` where JavaScript sends ``1``). The same program serves every comparison mode.
"""

from __future__ import annotations

from typing import Any

from wapii_core.api import Sample, Setup
from wapii_core.kits.wire import wire_text
from wapii_core.kits.python import (
    PYTHON_REQUEST_METHODS, py_call_arguments, py_literal, py_string, py_whole_number, render_py_workflow,
)

from .prompt import ANCHOR, starter_code

BODY = "\n        pass\n"
"""The response's block: nothing runs after the request."""


def _query_value(value: Any) -> Any:
    if isinstance(value, list):
        return [_query_value(item) for item in value]
    if isinstance(value, bool) or value is None:
        return wire_text(value)
    return py_whole_number(value)


def call_arguments(config: dict[str, Any]) -> list[str]:
    """The keyword arguments after the URL, as Python source."""
    args, kind = py_call_arguments(config, _query_value)
    data = config.get("data")
    if kind == "multipart":
        fields = {key: wire_text(value) for key, value in data.items()}
        args.append(f"data=aiohttp.FormData({py_literal(fields)}, default_to_multipart=True)")
    elif kind == "raw":
        args.append(f"data={py_literal(data)}")
    return args


def render_call(config: dict[str, Any]) -> str:
    """The call without the leading ``session.``: ``get('…', …)``, or ``request('METHOD', '…', …)``."""
    url = py_string(config["url"])
    args = call_arguments(config)
    method = str(config["method"]).lower()
    if method in PYTHON_REQUEST_METHODS:
        return f"{method}(" + ", ".join([url, *args]) + ")"
    return "request(" + ", ".join([py_string(method.upper()), url, *args]) + ")"


def render_program(config: dict[str, Any], setup: Setup, sample: Sample, mode: str = "wire") -> str:
    """A full program (starter code of ``setup`` + completion) that issues exactly ``config``; aiohttp
    writes each value one way, so ``mode`` changes nothing."""
    starter = starter_code(sample, setup)
    if setup is Setup.argument:
        fixed = (sample.config["method"], sample.config["url"])
        if (config["method"], config["url"]) != fixed:
            raise ValueError(f"the argument setup fixes method and URL to {fixed}; cannot render {config['method']} {config['url']}")
        if str(config["method"]).lower() not in PYTHON_REQUEST_METHODS:
            raise ValueError(f"session.{config['method']} does not exist")
        return starter + " " + ", ".join(call_arguments(config)) + ") as response:" + BODY
    call = render_call(config) + " as response:" + BODY
    if setup is Setup.full:
        return starter + call
    return starter + "\nasync with aiohttp.ClientSession() as session:\n" + ANCHOR + call


WORKFLOW_HELPER = """\
import asyncio


async def send(request):
    \"\"\"Sends a request (again after the wait a 429 answer asks for, at most 5 times); returns the JSON answer.\"\"\"
    for attempt in range(6):
        async with request() as response:
            if response.status == 429 and attempt < 5:
                await asyncio.sleep(float(response.headers.get('Retry-After', 1)))
                continue
            response.raise_for_status()
            return await response.json(content_type=None)
"""
"""The workflow program's ``send`` (``raise_for_status`` fails any other status of 400 or above; an empty answer is None)."""
SESSION_HEADER = "async with aiohttp.ClientSession() as session:"


def render_workflow_program(calls: list[dict[str, Any]], sample: Sample) -> str:
    """The oracle's whole program for a workflow task: one session, each call as :func:`render_call`
    writes it, its references read from the earlier answers (:func:`wapii_core.kits.python.render_py_workflow`)."""
    return render_py_workflow(starter_code(sample, Setup.workflow), WORKFLOW_HELPER, calls,
                              lambda config: "session." + render_call(config), session=SESSION_HEADER)
