"""The axios library as wapii's sandboxed JavaScript runtime runs it, and the record it captures.

The npm packages (axios and axios-mock-adapter, the versions the reference pipeline used, and the
runtime's own) are pinned by ``js/package-lock.json``; ``js/hook.js`` sets axios up in each run
behind axios-mock-adapter, whose reply records the config it received as the reference's mock
logged it (``js/capture.js``).
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, JsonValue

from wapii_core.kits.node import NodeLibrary

PRELUDE = "const axios = __wapii__.axios, MockAdapter = __wapii__.MockAdapter, fs = __wapii__.fs, mock = __wapii__.mock;\n"
"""What a program sees, as in the reference's ``node -`` script."""

WARM_UP = (
    "axios.get('https://example.com/a?b=1', { headers: { Authorization: 'Bearer t' }, params: { c: 2 } });",
    "axios.post('https://example.com/a', { b: [1, { c: 'd' }] });",
    "axios.post('https://example.com/a', { b: 'c' }, { headers: { 'Content-Type': 'multipart/form-data' } });",
    "axios.put('https://example.com/a', { b: { c: 'd' } }, { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });",
    "axios.delete('https://example.com/a', { data: new URLSearchParams({ b: 'c' }) });",
)
"""Requests of every body kind, run once per worker so that real runs find the kit compiled."""


def js_dir() -> Path:
    """The adapter's JavaScript: npm manifest and lock, the hook and the capture."""
    return Path(str(resources.files("wapii_axios_js") / "js"))


@functools.lru_cache(maxsize=1)
def library() -> NodeLibrary:
    """The axios library for the runtime."""
    return NodeLibrary(name="axios_js", dir=js_dir(), hook="hook.js", prelude=PRELUDE,
                       packages=("axios", "axios-mock-adapter", "form-data"), warm_up=WARM_UP, version_of="axios")


class CapturedRequest(BaseModel):
    """The judged keys of the request config the mock adapter received (metrics.md §3): ``headers``
    an object of strings (what axios sends; only a program that bypasses axios's header handling
    logs anything else). A key whose value is ``null`` is left out by the normaliser, as the
    reference ignored it."""

    model_config = ConfigDict(extra="forbid", strict=True)

    url: str
    method: str
    headers: dict[str, str] | None = None
    params: dict[str, JsonValue] | None = None
    data: JsonValue = None
    path_params: dict[str, JsonValue] | None = None
