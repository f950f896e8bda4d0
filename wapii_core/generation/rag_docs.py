"""The documentation of every endpoint of a spec: what retrieval searches and what a prompt shows.

One :class:`EndpointDoc` per operation (spec order, as the judge's index lists them): ``text`` is
what the retriever indexes (method words, path words, summary, description, parameter and body
property names and descriptions), ``shown`` the compact documentation put in a prompt (method and
full URL, summary, then each argument with its type, ``required`` mark and description). The
spec's templates and methods come from :class:`~wapii_core.openapi.index.SpecIndex`; the prose is read from
the same document with the index's YAML loader and ``$ref`` resolver.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from wapii_core.openapi.index import SpecIndex
from wapii_core.openapi.indexed_document import spec_document
from wapii_core.openapi.operations import OPERATION_METHODS
from wapii_core.openapi.refs import Resolver

METHOD_WORDS = {"get": "get list retrieve fetch read show find", "post": "create add post send make new",
                "put": "update replace set edit", "patch": "update modify change edit", "delete": "delete remove"}
"""Words a task uses for what a method does (retrieval only)."""
DESCRIPTION_CHARS = 300
"""Descriptions are cut to this many characters (in both texts)."""
ARGUMENT_DESCRIPTION_CHARS = 80
WEIGHTS = {"method": 1, "path": 3, "operation": 1, "summary": 2, "description": 1, "tags": 1,
           "argument": 1, "argument_description": 1, "inner": 1}
"""How many times each part of an endpoint's documentation counts in its indexed text (the path's
words, each placeholder counting as the word ``id`` too, and the summary weigh most)."""


@dataclass(frozen=True)
class EndpointDoc:
    """One endpoint's documentation."""

    method: str
    template: str
    text: str  # indexed by the retriever
    shown: str  # put in a prompt


def _cut(text: Any, limit: int) -> str:
    text = " ".join(str(text or "").split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _type_name(schema: Any, resolve: Resolver) -> str:
    schema = resolve(schema)
    if not isinstance(schema, dict):
        return "any"
    if "enum" in schema and isinstance(schema["enum"], list):
        return "one of " + ", ".join(repr(v) for v in schema["enum"][:6]) + (", …" if len(schema["enum"]) > 6 else "")
    kind = schema.get("type")
    if kind == "array":
        return f"array of {_type_name(schema.get('items'), resolve)}"
    if isinstance(kind, str):
        return kind
    return "object" if "properties" in schema or "allOf" in schema else "any"


def _properties(schema: Any, resolve: Resolver, depth: int = 0) -> tuple[dict[str, Any], set[str]]:
    """Top-level properties and required names of an object schema (allOf parts merged)."""
    schema = resolve(schema)
    if not isinstance(schema, dict) or depth > 8:
        return {}, set()
    props = dict(resolve(schema.get("properties")) or {})
    required = {r for r in schema.get("required") or [] if isinstance(r, str)}
    for part in schema.get("allOf") or []:
        sub, sub_required = _properties(part, resolve, depth + 1)
        props.update(sub)
        required |= sub_required
    return props, required


def _argument(name: str, kind: str, required: bool, description: Any) -> str:
    mark = ", required" if required else ""
    about = _cut(description, ARGUMENT_DESCRIPTION_CHARS)
    return f"{name} ({kind}{mark})" + (f": {about}" if about else "")


def _words(text: str) -> str:
    """Path and identifier words: ``/conversations.setTopic`` → ``conversations set Topic``."""
    return " ".join(re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text).replace("_", " ").replace("-", " ")
                    .replace(".", " ").replace("/", " ").replace("{", " ").replace("}", " ").split())


CACHE_FORMAT = 1
"""Version of the cached documentation (bumped whenever what :func:`_endpoint_doc` writes changes)."""


def endpoint_docs(index: SpecIndex) -> list[EndpointDoc]:
    """The documentation of every operation of the indexed spec, in the index's order (cached on disk
    by the spec's sha256, :mod:`wapii_core.openapi.cache`: a warm process does not read the document)."""
    import wapii_core.openapi.cache as spec_cache

    cached = spec_cache.read(index.sha256, "endpoint-docs", CACHE_FORMAT)
    try:
        if cached is not None:
            return [EndpointDoc(*map(str, entry)) for entry in cached if len(entry) == 4]
    except TypeError:
        pass
    docs = _build(index)
    spec_cache.write(index.sha256, "endpoint-docs", CACHE_FORMAT,
                     [[d.method, d.template, d.text, d.shown] for d in docs], tree=True)
    return docs


def _build(index: SpecIndex) -> list[EndpointDoc]:
    doc, resolve = spec_document(index)
    paths = resolve(doc.get("paths")) or {}
    out = []
    for template in index.templates:
        item = resolve(paths.get(template)) or {}
        for method in OPERATION_METHODS:
            if method in index.methods(template):
                out.append(_endpoint_doc(index.server, template, method, item, resolve))
    return out


def _endpoint_doc(server: str, template: str, method: str, item: dict[str, Any], resolve: Resolver) -> EndpointDoc:
    op = resolve(item.get(method)) or {}
    summary = _cut(op.get("summary"), DESCRIPTION_CHARS)
    description = _cut(op.get("description"), DESCRIPTION_CHARS)
    lines = [f"{method.upper()} {server}{template}"]
    if summary or description:
        lines.append("  " + (summary or description))
    parts: dict[str, list[str]] = {k: [] for k in WEIGHTS}
    parts["method"].append(METHOD_WORDS.get(method, method))
    parts["path"].append(_words(template) + " id" * template.count("{"))  # a placeholder is an identifier
    parts["operation"].append(_words(str(op.get("operationId") or "")))
    parts["summary"].append(summary)
    parts["description"].append(description)
    parts["tags"].append(" ".join(str(t) for t in op.get("tags") or []))
    params = []
    for node in list(op.get("parameters") or []) + list(item.get("parameters") or []):
        param = resolve(node)
        if isinstance(param, dict) and isinstance(param.get("name"), str) and param.get("in") != "path":
            params.append(param)
    seen: set[tuple[str, str]] = set()
    for param in params:
        key = (param["name"], str(param.get("in")))
        if key in seen:
            continue
        seen.add(key)
        lines.append(f"  {param.get('in')}: " + _argument(param["name"], _type_name(param.get("schema"), resolve),
                                                        param.get("required") is True, param.get("description")))
        parts["argument"].append(_words(param["name"]))
        parts["argument_description"].append(_cut(param.get("description"), ARGUMENT_DESCRIPTION_CHARS))
    body = resolve(op.get("requestBody"))
    if isinstance(body, dict) and isinstance(body.get("content"), dict) and body["content"]:
        media = resolve(next(iter(body["content"].values())))
        props, required = _properties(media.get("schema") if isinstance(media, dict) else None, resolve)
        for name, sub in props.items():
            sub = resolve(sub)
            lines.append("  body: " + _argument(name, _type_name(sub, resolve), name in required,
                                                sub.get("description") if isinstance(sub, dict) else None))
            parts["argument"].append(_words(str(name)))
            parts["argument_description"].append(
                _cut(sub.get("description") if isinstance(sub, dict) else "", ARGUMENT_DESCRIPTION_CHARS))
            inner, _ = _properties(sub, resolve)  # a wrapper object ({"data": {...}}): its keys too
            parts["inner"] += [_words(str(n)) for n in inner]
    text = " ".join(" ".join(w for w in parts[k] if w) for k, n in WEIGHTS.items() for _ in range(n))
    return EndpointDoc(method, template, text, "\n".join(lines))
