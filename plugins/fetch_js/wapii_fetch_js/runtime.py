"""fetch as wapii's sandboxed JavaScript runtime runs it (``js/hook.js``), and the record it captures.

The npm packages are only the runtime's own (pinned by ``js/package-lock.json``): fetch itself is
the hook's re-implementation of Node's (undici's) request serialisation inside the program's
context, where Node's own cannot be reached (see ``js/hook.js``).
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path
from typing import Annotated, Union

from annotated_types import Len
from pydantic import BaseModel, ConfigDict, StrictBool, StrictFloat, StrictInt, field_validator

from wapii_core.kits.node import NodeLibrary

WARM_UP = (
    "fetch('https://example.com/a?b=1&c=' + new URLSearchParams({ d: 2 }), { headers: { Authorization: 'Bearer t' } });",
    "fetch('https://example.com/a', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ b: [1] }) });",
    "fetch('https://example.com/a', { method: 'PUT', body: new URLSearchParams([['b', 'c']]) });",
    "fetch('https://example.com/a', { method: 'POST', body: (() => { const f = new FormData(); f.append('b', 'c'); return f; })() });",
)
"""Requests of every body kind, run once per worker so that real runs find the kit compiled."""


def js_dir() -> Path:
    """The adapter's JavaScript: npm manifest and lock, the hook."""
    return Path(str(resources.files("wapii_fetch_js") / "js"))


@functools.lru_cache(maxsize=1)
def library() -> NodeLibrary:
    """fetch for the runtime: the hook defines ``fetch``, ``Headers``, ``Request``, ``Response``,
    ``URLSearchParams`` and ``FormData`` as globals, so the prelude binds nothing; ``finish.js``, in
    the worker, parses each URL with Node's own parser, writes form and multipart bodies from their
    recorded entries and adds ``content-length``."""
    return NodeLibrary(name="fetch_js", dir=js_dir(), hook="hook.js", finish="finish.js", prelude="", warm_up=WARM_UP)


class FetchRecord(BaseModel):
    """One request as fetch sent it: the URL (WHATWG-serialised, without fragment), the method as
    sent, the header list in order and spelling, the body's bytes as a latin-1 string (absent
    without a body), and the typed query values the run passed to ``URLSearchParams`` (``hints``,
    see ``js/hook.js``)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    url: str
    method: str
    headers: list[Annotated[list[str], Len(2, 2)]]
    body: str | None = None
    hints: dict[str, Union[StrictBool, StrictInt, StrictFloat]] = {}

    @field_validator("body")
    @classmethod
    def _bytes(cls, value: str | None) -> str | None:
        if value is not None and any(ord(char) > 0xFF for char in value):
            raise ValueError("is not a string of bytes")
        return value
