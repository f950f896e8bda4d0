"""Reduce an OpenAPI 3 document to what judging needs (the data behind :class:`~wapii_core.openapi.index.SpecIndex`).

Mirrors how openapi3-parser, which the reference evaluation uses, presents a spec: operations are
the path item's ``get`` … ``trace`` keys, and every operation's parameter list is its own
parameters followed by the path-level ones. ``$ref`` chains are followed (strictly, by
:class:`wapii_core.openapi.refs.Resolver`: a broken one is an error) for path items, parameters,
request bodies, media types and schemas; a request body's legal properties are the top-level ``properties`` of its *first* media type's schema, with ``allOf`` parts merged.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wapii_core.base.errors import InputError
from wapii_core.openapi.refs import Resolver

OPERATION_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
"""Path-item keys that are operations, in openapi3-parser's order."""


@dataclass(frozen=True)
class Operation:
    """What the judging rules need of one operation."""

    parameters: tuple[tuple[str, str], ...]  # (name, location): own parameters, then the path-level ones
    body_properties: frozenset[str] | None  # properties of the first media type's schema; None: no body


@dataclass(frozen=True)
class PathItem:
    """One path template of the spec."""

    template: str
    parameters: tuple[tuple[str, str], ...]  # path-level (name, location)
    operations: dict[str, Operation]  # lower-case method -> operation

    @property
    def path_param_names(self) -> list[str]:
        """Names of the ``in: path`` parameters of all operations, first occurrence first."""
        names: list[str] = []
        for op in self.operations.values():
            for name, location in op.parameters:
                if location == "path" and name not in names:
                    names.append(name)
        return names


def read(path: Path, doc: Any) -> dict[str, Any]:
    """The index data of ``doc``, the parsed document of ``path``: ``server``, ``security`` and ``paths``.

    Raises :class:`InputError` (naming ``path``) for a document that is not an OpenAPI 3 document.
    """
    version = doc.get("openapi") if isinstance(doc, dict) else None
    if not isinstance(version, str) or not version.startswith("3."):  # Swagger 2.0 arrives converted
        raise InputError(path, "not an OpenAPI 3 document (no 'openapi: 3.x' field)")
    paths = doc.get("paths")
    if not isinstance(paths, dict):
        raise InputError(path, "has no 'paths' object")
    servers = doc.get("servers")
    if not (isinstance(servers, list) and servers and isinstance(servers[0], dict)
            and isinstance(servers[0].get("url"), str)):
        raise InputError(path, "has no servers[].url")
    resolver = Resolver(doc, path)
    items = [_path_item(resolver, str(template), node) for template, node in paths.items()]
    return {"server": servers[0]["url"], "security": _security(resolver), "paths": items}


def _parameters(resolve: Resolver, nodes: Any) -> tuple[tuple[str, str], ...]:
    out = []
    for node in nodes if isinstance(nodes, list) else []:
        param = resolve(node)
        if isinstance(param, dict) and isinstance(param.get("name"), str) and isinstance(param.get("in"), str):
            out.append((param["name"], param["in"]))
    return tuple(out)


def _schema_properties(resolve: Resolver, schema: Any, depth: int = 0) -> set[str] | None:
    """Property names of an object schema (allOf parts included); None if it is no object schema."""
    schema = resolve(schema)
    if not isinstance(schema, dict) or depth > 32:
        return None
    names: set[str] | None = None
    if isinstance(schema.get("properties"), dict):
        names = {k for k in schema["properties"] if isinstance(k, str)}
    elif schema.get("type") == "object":
        names = set()
    for part in schema.get("allOf") or []:
        sub = _schema_properties(resolve, part, depth + 1)
        if sub is not None:
            names = (names or set()) | sub
    return names


def _operation(resolve: Resolver, node: Any, path_params: tuple[tuple[str, str], ...]) -> Operation:
    node = resolve(node)
    node = node if isinstance(node, dict) else {}
    body: frozenset[str] | None = None
    request_body = resolve(node.get("requestBody"))
    if isinstance(request_body, dict) and isinstance(request_body.get("content"), dict) and request_body["content"]:
        media = resolve(next(iter(request_body["content"].values())))
        props = _schema_properties(resolve, media.get("schema")) if isinstance(media, dict) else None
        body = frozenset(props or ())
    return Operation(parameters=_parameters(resolve, node.get("parameters")) + path_params, body_properties=body)


def _path_item(resolve: Resolver, template: str, node: Any) -> PathItem:
    node = resolve(node)
    node = node if isinstance(node, dict) else {}
    params = _parameters(resolve, node.get("parameters"))
    operations = {m: _operation(resolve, node[m], params) for m in OPERATION_METHODS if m in node}
    return PathItem(template=template, parameters=params, operations=operations)


def _security(resolve: Resolver) -> list[tuple[str, str | None, str | None]]:
    components = resolve(resolve.doc.get("components"))
    schemes = resolve(components.get("securitySchemes")) if isinstance(components, dict) else None
    out = []
    for scheme in (schemes or {}).values() if isinstance(schemes, dict) else ():
        scheme = resolve(scheme)
        if isinstance(scheme, dict) and isinstance(scheme.get("type"), str):
            name, location = scheme.get("name"), scheme.get("in")
            out.append((scheme["type"], name if isinstance(name, str) else None,
                        location if isinstance(location, str) else None))
    return out
