"""Writing a Go program that issues a given request config (the ``oracle`` backend's source).

One program serves every comparison mode (Go sends every query value and form field as text):
``req, err := http.NewRequest("<METHOD>", "<url>" + "?<query>", <body>)``, the query written as
wire mode expects its values (``true``, ``10``) and percent-encoded; each header assigned to
``req.Header`` by its name as the config spells it (``req.Header["X-API-Key"] = ...``: net/http sends
a name so assigned as written, where ``Header.Set`` would canonicalise it); the body by its kind:
JSON text with the ``Content-Type`` the config names (``application/json`` when it names none), a form
as its encoded text, multipart as its encoded parts with a fixed boundary, any other body as its
text; then ``http.DefaultClient.Do(req)``. The standard-library imports the program needs are added
before it compiles (as goimports does), so every setup's starter, which imports ``net/http`` alone,
is kept as it is.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from wapii_core.api import Sample, Setup
from wapii_core.kits.wire import FORM_TYPE, MULTIPART_TYPE, is_json, media_type, wire_text

from .golit import go_string
from .prompt import starter_code

BOUNDARY = "wapii-go-boundary"


def _content_type(config: dict[str, Any]) -> str | None:
    return next((str(v) for k, v in (config.get("headers") or {}).items() if k.lower() == "content-type"), None)


def _items(values: dict[str, Any]) -> list[tuple[str, str]]:
    return [(str(key), wire_text(item)) for key, value in values.items()
            for item in (value if isinstance(value, list) else [value]) if item is not None]


def _encoded(pairs: list[tuple[str, str]]) -> str:
    return "&".join(f"{quote(key, safe='')}={quote(value, safe='')}" for key, value in pairs)


class Literal:
    """How the rendering spells what a request carries as Go source: every value known when the program
    is written, so each is a literal (the one-call programs; :mod:`.workflow` spells references to
    earlier answers as code that reads them)."""

    def text(self, value: str) -> str:
        """A Go string expression of ``value``."""
        return go_string(value)

    def encoded(self, pairs: list[tuple[str, str]], prefix: str = "") -> str:
        """A Go string expression of ``prefix`` and the percent-encoded ``name=value`` pairs."""
        return go_string(prefix + _encoded(pairs))

    def json(self, data: Any) -> str:
        """A Go string expression of ``data`` as JSON text."""
        return go_string(json.dumps(data, ensure_ascii=False))


LITERAL = Literal()


def body_text(config: dict[str, Any], headers: dict[str, Any], spell: Literal = LITERAL) -> str | None:
    """The body as a Go string expression (adjusting ``headers``): None without a body."""
    data = config.get("data")
    if data is None:
        return None
    content_type = _content_type(config)
    media = media_type(content_type)
    if media == MULTIPART_TYPE and isinstance(data, dict):
        for name in [n for n in headers if n.lower() == "content-type"]:
            del headers[name]
        headers["Content-Type"] = f"multipart/form-data; boundary={BOUNDARY}"
        parts = "".join(f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{key}\"\r\n\r\n{value}\r\n"
                        for key, value in _items(data))
        return spell.text(parts + f"--{BOUNDARY}--" + chr(13) + chr(10))
    if media == FORM_TYPE and isinstance(data, dict):
        return spell.encoded(_items(data))
    if content_type is None or is_json(content_type) or not isinstance(data, str):
        if content_type is None:
            headers["Content-Type"] = "application/json"
        return spell.json(data)
    return spell.text(data)


def request_parts(config: dict[str, Any], spell: Literal = LITERAL) -> tuple[str, str, str | None, dict[str, Any]]:
    """The Go expressions of ``config``'s method, target URL (the query appended) and body (None: no
    body), and the headers to send (with the ``Content-Type`` the body needs)."""
    target = spell.text(config["url"])
    params = {k: v for k, v in (config.get("params") or {}).items() if v is not None}
    if params:
        target += f" + {spell.encoded(_items(params), prefix='?')}"
    headers = dict(config.get("headers") or {})
    body = body_text(config, headers, spell)
    return go_string(config["method"].upper()), target, body, headers


def call_arguments(config: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The arguments of ``http.NewRequest(...)`` that issue ``config``, and the headers to set after it."""
    method, target, body, headers = request_parts(config)
    return f"{method}, {target}, {'nil' if body is None else f'strings.NewReader({body})'}", headers


def _rest(headers: dict[str, Any]) -> str:
    lines = ["\tif err != nil {", "\t\tpanic(err)", "\t}"]
    lines += [f"\treq.Header[{go_string(str(name))}] = []string{{{go_string(str(value))}}}"
              for name, value in headers.items()]
    lines += ["\tresp, err := http.DefaultClient.Do(req)", "\tif err != nil {", "\t\tpanic(err)", "\t}",
              "\tdefer resp.Body.Close()", "}"]
    return "\n".join(lines) + "\n"


def render_program(config: dict[str, Any], setup: Setup, sample: Sample) -> str:
    """A full program (starter code of ``setup`` + completion) that issues exactly ``config``."""
    starter = starter_code(sample, setup)
    arguments, headers = call_arguments(config)
    if setup is Setup.argument:
        opened = f"{go_string(str(sample.config['method']).upper())}, {go_string(sample.config['url'])}"
        if not arguments.startswith(opened):
            raise ValueError(f"the argument setup fixes {sample.config['method'].upper()} {sample.config['url']}; "
                             f"cannot render {config['method'].upper()} {config['url']}")
        return starter + arguments[len(opened):] + ")\n" + _rest(headers)
    if setup is Setup.full:
        return starter + arguments + ")\n" + _rest(headers)
    return starter + "\nfunc main() {\n\treq, err := http.NewRequest(" + arguments + ")\n" + _rest(headers)
