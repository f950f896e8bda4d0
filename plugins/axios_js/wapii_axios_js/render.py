"""Writing a program that issues a given request config (the ``oracle`` backend's source).

The program is the starter code of the setup followed by one axios call whose captured and
normalised request equals the config. Two axios behaviours need care: it always sends its default
``Accept`` header and, for post/put/patch or a body, a ``Content-Type``; a config without them is
rendered with that header set to ``false``, which axios keeps out of the request. A body-carrying
method without a body passes ``undefined`` as data (``null`` would be sent as the body ``null``).
"""

from __future__ import annotations

from typing import Any

from wapii_core.api import Sample, Setup
from wapii_core.kits.node import js_literal, js_string, render_js_workflow

from .prompt import starter_code

BODYLESS_METHODS = ("get", "delete", "head", "options")
"""Shorthands with the signature ``axios.<method>(url[, config])``."""
BODY_METHODS = ("post", "put", "patch")
"""Shorthands with the signature ``axios.<method>(url[, data[, config]])``."""

def _headers(config: dict[str, Any], method: str) -> dict[str, Any]:
    """The headers to pass: the config's own, and ``false`` for axios defaults the config lacks."""
    headers = dict(config.get("headers") or {})
    present = {name.lower() for name in headers}
    if "accept" not in present:
        headers["Accept"] = False
    if "content-type" not in present and (method in BODY_METHODS or config.get("data") is not None):
        headers["Content-Type"] = False
    return headers


def call_arguments(config: dict[str, Any]) -> list[str]:
    """The call's arguments after the URL, as JavaScript source, for ``axios.<method>(url, ...)``."""
    method = config["method"].lower()
    options: dict[str, Any] = {"headers": _headers(config, method)}
    if config.get("params") is not None:
        options["params"] = config["params"]
    if method in BODY_METHODS:
        data = js_literal(config["data"]) if config.get("data") is not None else "undefined"
        return [data, js_literal(options)]
    if config.get("data") is not None:
        options["data"] = config["data"]
    return [js_literal(options)]


def render_call(config: dict[str, Any]) -> str:
    """The call without the leading ``axios.``: ``get('…', { … })``, or ``request({ … })`` for other methods."""
    method = config["method"].lower()
    if method in BODYLESS_METHODS or method in BODY_METHODS:
        return f"{method}(" + ", ".join([js_string(config["url"]), *call_arguments(config)]) + ")"
    options = {"url": config["url"], "method": method, "headers": _headers(config, method)}
    for key in ("params", "data"):
        if config.get(key) is not None:
            options[key] = config[key]
    return f"request({js_literal(options)})"


def render_program(config: dict[str, Any], setup: Setup, sample: Sample) -> str:
    """A full program (starter code of ``setup`` + completion) that issues exactly ``config``."""
    starter = starter_code(sample, setup)
    if setup is Setup.argument:
        fixed = (sample.config["method"], sample.config["url"])
        if (config["method"], config["url"]) != fixed:
            raise ValueError(f"the argument setup fixes method and URL to {fixed}; cannot render {config['method']} {config['url']}")
        if config["method"].lower() not in BODYLESS_METHODS + BODY_METHODS:
            raise ValueError(f"axios has no shorthand for method {config['method']!r}")
        return starter + " " + ", ".join(call_arguments(config)) + ");\n"
    call = render_call(config) + ";\n"
    if setup is Setup.full:
        return starter + call
    return starter + "\naxios." + call


WORKFLOW_HELPER = """\
const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

// Sends a request (again after the wait a 429 answer asks for, at most 5 times); gives the JSON answer.
async function send(request) {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await request()).data;
    } catch (error) {
      if (!error.response || error.response.status !== 429 || attempt === 5) throw error;
      const wait = Number(error.response.headers['retry-after'] ?? NaN);
      await sleep(Number.isFinite(wait) ? wait : 1);
    }
  }
}
"""
"""The workflow program's ``send``: axios rejects any status of 400 or above, so a 429 is retried from its rejection."""


def render_workflow_program(calls: list[dict[str, Any]], sample: Sample) -> str:
    """The oracle's whole program for a workflow task: each call rendered as :func:`render_call` writes it,
    its references read from the earlier answers (:func:`wapii_core.kits.node.render_js_workflow`)."""
    return render_js_workflow(starter_code(sample, Setup.workflow), WORKFLOW_HELPER, calls,
                              lambda config: "axios." + render_call(config))
