"""Prompts, starter codes and the oracle's programs of the ``urllib_py`` adapter.

Every program starts with :func:`starter_code` of its setup (the core checks that a generated
program does); the oracle's program (:func:`render_program`) then issues exactly the expected
request, written the way ``wire`` mode judges it: the query string and form fields as JSON writes
scalars (``true``, ``10``), a JSON body through ``json.dumps``.
"""

from __future__ import annotations

import urllib.parse
from typing import Any

from wapii_core.api import Dataset, Prompt, Sample, Setup
from wapii_core.kits.wire import wire_text

IMPORTS = "import json\nimport urllib.parse\nimport urllib.request\n"
OPEN = "\nurllib.request.urlopen(urllib.request.Request(\n    "


def starter_code(sample: Sample, setup: Setup) -> str:
    """``import`` the imports; ``full`` also opens the call; ``argument`` also gives the URL."""
    if setup == Setup.imports:
        return IMPORTS
    if setup == Setup.full:
        return IMPORTS + OPEN
    return IMPORTS + OPEN + repr(sample.config["url"])


def build_prompt(sample: Sample, setup: Setup, dataset: Dataset) -> Prompt:
    """The task as a comment, then the starter code."""
    api = dataset.display_names.get(sample.api, sample.api)
    instructions = (f"# Using Python's urllib.request, call the {api} API to do this:\n"
                    f"# {' '.join(sample.task.split())}\n")
    starter = starter_code(sample, setup)
    return Prompt(text=instructions + starter, starter=starter, instructions=instructions)


def _query(params: dict[str, Any]) -> str:
    pairs = [(name, wire_text(item)) for name, value in params.items() if value is not None
             for item in (value if isinstance(value, list) else [value]) if item is not None]
    return urllib.parse.urlencode(pairs, quote_via=urllib.parse.quote)


def _body(config: dict[str, Any]) -> str | None:
    data = config.get("data")
    if data is None:
        return None
    content_type = str((config.get("headers") or {}).get("Content-Type", "application/json"))
    if content_type.startswith("application/x-www-form-urlencoded") and isinstance(data, dict):
        fields = {name: wire_text(value) for name, value in data.items()}
        return f"urllib.parse.urlencode({fields!r}).encode()"
    return f"json.dumps({data!r}).encode()"


def render_program(config: dict[str, Any], setup: Setup, sample: Sample) -> str:
    """A full program for ``setup`` that sends ``config`` (the same program in every mode)."""
    starter = starter_code(sample, setup)
    program = IMPORTS + OPEN + repr(config["url"])
    query = _query(config.get("params") or {})
    if query:
        program += f" + {('?' + query)!r}"
    program += f",\n    method={config['method'].upper()!r},\n"
    headers = {name: wire_text(value) for name, value in (config.get("headers") or {}).items() if value is not None}
    if headers:
        program += f"    headers={headers!r},\n"
    body = _body(config)
    if body:
        program += f"    data={body},\n"
    program += "))\n"
    assert program.startswith(starter), "the oracle's program must continue the starter code"
    return program
