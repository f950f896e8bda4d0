"""Retrieved endpoints rendered as TypeScript types (the journal edition's retrieval format,
``-O rag_format=typescript``).

Each retrieved operation becomes one ``type`` whose members are the request's parts: ``path``,
``query``, ``headers`` and ``body`` (a part is optional when none of its members is required), each
argument typed from its schema (strings, numbers, booleans, enums as unions of literals, arrays,
objects inline three levels deep, ``oneOf``/``anyOf`` as unions, ``allOf`` merged) with its
description as a comment. The block is introduced in the published wording and its types are cut at
:data:`MAX_CHARS` characters, as the published pipeline cuts them.
"""

from __future__ import annotations

import json
import re
from typing import Any

from wapii_core.generation.rag_docs import EndpointDoc
from wapii_core.openapi.index import SpecIndex
from wapii_core.openapi.refs import Resolver

HEADER = "Useful endpoints of the OpenAPI specification of the {api} API, given as TypeScript types:\n\n"
MAX_CHARS = 8000
"""The types are cut at this many characters (the published limit)."""
MAX_DEPTH = 3
"""Nested objects written out inline; deeper ones are ``object``."""
MAX_ENUM = 12
DESCRIPTION_CHARS = 100
LOCATIONS = (("path", "path"), ("query", "query"), ("header", "headers"), ("cookie", "cookies"))


def typescript_block(docs: list[EndpointDoc], index: SpecIndex, api: str, max_chars: int = MAX_CHARS) -> str:
    """The block put in front of a prompt: the header and the retrieved endpoints' types in a
    ``typescript`` code block, the types cut at ``max_chars`` characters."""
    from wapii_core.openapi.indexed_document import spec_document

    document, resolve = spec_document(index)
    paths = resolve(document.get("paths")) or {}
    types = "\n\n".join(endpoint_type(index.server, doc.template, doc.method, resolve(paths.get(doc.template)) or {},
                                      resolve) for doc in docs)
    return HEADER.format(api=api) + "```typescript\n" + types[:max_chars] + "\n```\n\n"


def endpoint_type(server: str, template: str, method: str, item: dict[str, Any], resolve: Resolver) -> str:
    """One operation as a TypeScript ``type`` (its name from the method and path, its URL in a comment)."""
    op = resolve(item.get(method)) or {}
    about = _comment(op.get("summary") or op.get("description"))
    lines = [f"// {method.upper()} {server}{template}" + (f": {about}" if about else ""),
             f"type {_type_name(method, template)} = {{"]
    params: dict[tuple[str, str], dict[str, Any]] = {}
    for node in list(item.get("parameters") or []) + list(op.get("parameters") or []):  # the operation's win
        param = resolve(node)
        if isinstance(param, dict) and isinstance(param.get("name"), str):
            params[(str(param.get("in")), param["name"])] = param
    for location, member in LOCATIONS:
        fields = [(name, p) for (where, name), p in params.items() if where == location]
        if not fields:
            continue
        required = any(p.get("required") is True or location == "path" for _, p in fields)
        lines.append(f"  {member}{'' if required else '?'}: {{")
        for name, param in fields:
            mark = "" if param.get("required") is True or location == "path" else "?"
            lines.append(f"    {_key(name)}{mark}: {ts_type(param.get('schema'), resolve)};"
                         + _trailing(param.get("description")))
        lines.append("  };")
    body = resolve(op.get("requestBody"))
    if isinstance(body, dict) and isinstance(body.get("content"), dict) and body["content"]:
        media_type, media = next(iter(body["content"].items()))
        media = resolve(media)
        schema = media.get("schema") if isinstance(media, dict) else None
        mark = "" if body.get("required") is True else "?"
        lines.append(f"  body{mark}: {ts_type(schema, resolve, indent=1)}; // {media_type}")
    lines.append("};")
    return "\n".join(lines)


def ts_type(schema: Any, resolve: Resolver, depth: int = 0, indent: int = 0) -> str:
    """The TypeScript type of a JSON schema (``any`` where it says nothing)."""
    schema = resolve(schema)
    if not isinstance(schema, dict) or depth > 8:
        return "any"
    nullable = " | null" if schema.get("nullable") is True else ""
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        if len(enum) <= MAX_ENUM:
            return " | ".join(json.dumps(v) for v in enum) + nullable
        schema = {k: v for k, v in schema.items() if k != "enum"}
    for combinator in ("oneOf", "anyOf"):
        if isinstance(schema.get(combinator), list) and schema[combinator]:
            return " | ".join(_grouped(ts_type(s, resolve, depth + 1, indent)) for s in schema[combinator]) + nullable
    kind = schema.get("type")
    if isinstance(kind, list):
        return " | ".join(_scalar(k, schema, resolve, depth, indent) for k in kind)
    if kind is None and ("properties" in schema or "allOf" in schema):
        kind = "object"
    return _scalar(kind, schema, resolve, depth, indent) + nullable


def _scalar(kind: Any, schema: dict[str, Any], resolve: Resolver, depth: int, indent: int) -> str:
    if kind in ("integer", "number"):
        return "number"
    if kind in ("string", "boolean", "null"):
        return str(kind)
    if kind == "array":
        return f"Array<{ts_type(schema.get('items'), resolve, depth + 1, indent)}>"
    if kind == "object":
        props, required = _properties(schema, resolve)
        if not props:
            extra = schema.get("additionalProperties")
            return f"Record<string, {ts_type(extra, resolve, depth + 1, indent)}>" if isinstance(extra, dict) \
                else "object"
        if depth >= MAX_DEPTH:
            return "object"
        pad = "  " * (indent + 1)
        inner = [f"{pad}{_key(name)}{'' if name in required else '?'}: "
                 f"{ts_type(sub, resolve, depth + 1, indent + 1)};" + _trailing(_description(sub, resolve))
                 for name, sub in props.items()]
        return "{\n" + "\n".join(inner) + "\n" + "  " * indent + "}"
    return "any"


def _properties(schema: dict[str, Any], resolve: Resolver, depth: int = 0) -> tuple[dict[str, Any], set[str]]:
    props = dict(resolve(schema.get("properties")) or {})
    required = {r for r in schema.get("required") or [] if isinstance(r, str)}
    for part in schema.get("allOf") or []:
        part = resolve(part)
        if isinstance(part, dict) and depth < 8:
            sub, sub_required = _properties(part, resolve, depth + 1)
            props.update(sub)
            required |= sub_required
    return props, required


def _description(schema: Any, resolve: Resolver) -> Any:
    schema = resolve(schema)
    return schema.get("description") if isinstance(schema, dict) else None


def _grouped(text: str) -> str:
    return f"({text})" if " | " in text and not text.startswith("{") else text


def _comment(text: Any) -> str:
    words = " ".join(str(text or "").split()).replace("*/", "* /")
    return words if len(words) <= DESCRIPTION_CHARS else words[: DESCRIPTION_CHARS - 1].rstrip() + "…"


def _trailing(text: Any) -> str:
    about = _comment(text)
    return f" // {about}" if about else ""


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", name) else json.dumps(name)


def _type_name(method: str, template: str) -> str:
    """``GET /books/{bookId}`` → ``GetBooksByBookId``."""
    words = [method.capitalize()]
    for part in template.strip("/").split("/"):
        placeholder = part.startswith("{") and part.endswith("}")
        text = "".join(w[:1].upper() + w[1:] for w in re.split(r"[^A-Za-z0-9]+", part.strip("{}")) if w)
        words.append(("By" + text) if placeholder else text)
    name = "".join(words)
    return name if name[:1].isalpha() else "T" + name
