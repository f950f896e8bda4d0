"""Writing a program that issues a given request config (the ``oracle`` backend's source).

One program serves every comparison mode: the query is appended to the URL literal as
``+ '?' + new URLSearchParams({key: value, ...})``, which sends each value as its string (what
wire mode compares) and lets the normaliser give back the number or boolean the code wrote where
that is exactly what was sent (what reference mode compares); a query with a list (a repeated key)
is appended as its text (``+ '?tags=a&tags=b'``), its items as the strings sent. The URL literal
itself is the argument setup's starter (``fetch('<url>'``). The body by its kind: ``JSON.stringify(...)`` with the
``Content-Type`` the config names (``application/json`` when it names none: fetch would send a
string as ``text/plain``), a form as ``URLSearchParams``, multipart as a ``FormData`` (whose
``Content-Type``, with its boundary, fetch sets itself), any other body as its text.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, quote, urlsplit

from wapii_core.api import Sample, Setup
from wapii_core.kits.wire import FORM_TYPE, MULTIPART_TYPE, header_value, is_json, media_type, wire_text
from wapii_core.kits.node import js_literal, js_string, render_js_workflow

from .prompt import starter_code

BODYLESS = ("GET", "HEAD")
"""Methods fetch refuses a body for."""


_ABSENT = object()


def _content_type(config: dict[str, Any]) -> str | None:
    found = header_value(config.get("headers"), "content-type", default=_ABSENT)
    return None if found is _ABSENT else str(found)


def _pairs(values: dict[str, Any], as_text: bool) -> str:
    """``[['key', value], ...]``: a list value as one pair per item, ``None`` left out."""
    pairs = []
    for key, value in values.items():
        for item in value if isinstance(value, list) else [value]:
            if item is not None:
                pairs.append(f"[{js_string(str(key))}, {js_string(wire_text(item)) if as_text else js_literal(item)}]")
    return "[" + ", ".join(pairs) + "]"


def _body(config: dict[str, Any], headers: dict[str, Any]) -> str | None:
    """The ``body`` option's source (adjusting ``headers``), or None without a body."""
    data = config.get("data")
    if data is None:
        return None
    content_type = _content_type(config)
    media = media_type(content_type)
    if media == MULTIPART_TYPE and isinstance(data, dict):
        for name in [n for n in headers if n.lower() == "content-type"]:
            del headers[name]  # fetch writes it, with the boundary
        appends = "".join(f" form.append({js_string(str(k))}, {js_string(wire_text(item))});"
                          for k, v in data.items() for item in (v if isinstance(v, list) else [v]) if item is not None)
        return f"(() => {{ const form = new FormData();{appends} return form; }})()"
    if media == FORM_TYPE and isinstance(data, dict):
        return f"new URLSearchParams({_pairs(data, as_text=True)})"
    if content_type is None or is_json(content_type) or not isinstance(data, str):
        if content_type is None:
            headers["Content-Type"] = "application/json"
        return f"JSON.stringify({js_literal(data)})"
    return js_string(data)


def call_arguments(config: dict[str, Any]) -> str:
    """The arguments of ``fetch(...)`` that issue ``config``, as JavaScript source."""
    method = config["method"].upper()
    url = config["url"]
    in_url = dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))
    params = {k: v for k, v in (config.get("params") or {}).items()
              if v is not None and not (k in in_url and not isinstance(v, (list, dict)) and in_url[k] == wire_text(v))}
    # a parameter the URL's query already sends with that value is not sent twice (Etherscan's
    # configs repeat the URL's ?module=...&action=... in params)
    joiner = "&" if "?" in url else "?"  # a URL with a query of its own (Etherscan's ?module=...)
    if any(isinstance(v, list) for v in params.values()):
        query = "&".join(f"{quote(str(k), safe='')}={quote(wire_text(item), safe='')}"
                         for k, v in params.items() for item in (v if isinstance(v, list) else [v]) if item is not None)
        target = f"{js_string(url)} + {js_string(joiner + query)}"
    elif params:
        target = f"{js_string(url)} + {js_string(joiner)} + new URLSearchParams({js_literal(params)})"
    else:
        target = js_string(url)
    headers = dict(config.get("headers") or {})
    body = _body(config, headers)
    if body is not None and method in BODYLESS:
        raise ValueError(f"fetch sends no body with {method}; cannot render {config['method']} {url} with data")
    options = f"method: {js_string(method)}"
    if headers:
        options += f", headers: {js_literal(headers)}"
    if body is not None:
        options += f", body: {body}"
    return f"{target}, {{ {options} }}"


def render_program(config: dict[str, Any], setup: Setup, sample: Sample) -> str:
    """A full program (starter code of ``setup`` + completion) that issues exactly ``config``."""
    starter = starter_code(sample, setup)
    arguments = call_arguments(config)
    if setup is Setup.argument:
        opened = js_string(sample.config["url"])
        if config["url"] != sample.config["url"] or not arguments.startswith(opened):
            raise ValueError(f"the argument setup fixes the URL to {sample.config['url']}; cannot render {config['url']}")
        return starter + arguments[len(opened):] + ");\n"
    if setup is Setup.full:
        return starter + arguments + ");\n"
    return starter + "\nfetch(" + arguments + ");\n"


WORKFLOW_HELPER = """\
const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

// Sends a request (again after the wait a 429 answer asks for, at most 5 times); gives the JSON answer.
async function send(request) {
  for (let attempt = 0; ; attempt++) {
    const response = await request();
    if (response.status === 429 && attempt < 5) {
      const wait = Number(response.headers.get('retry-after') ?? NaN);
      await sleep(Number.isFinite(wait) ? wait : 1);
      continue;
    }
    const text = await response.text();
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}: ${text}`);
    return text ? JSON.parse(text) : null;
  }
}
"""
"""The workflow program's ``send``: fetch resolves with any status, so the status is checked here."""


def render_workflow_program(calls: list[dict[str, Any]], sample: Sample) -> str:
    """The oracle's whole program for a workflow task: each call's arguments as :func:`call_arguments`
    writes them, its references read from the earlier answers (:func:`wapii_core.kits.node.render_js_workflow`)."""
    return render_js_workflow(starter_code(sample, Setup.workflow), WORKFLOW_HELPER, calls,
                              lambda config: "fetch(" + call_arguments(config) + ")")
