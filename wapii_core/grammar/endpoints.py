"""The endpoints of an API as a grammar needs them: typed path, query, header and body arguments.

Built from the judge's own spec index (:class:`~wapii_core.openapi.index.SpecIndex`: server, templates,
methods, and which argument names are legal) plus the value types of the same spec document,
read with the index's YAML loader and ``$ref`` resolver (the index keeps names, not schemas).
Every argument offered here is one the judge calls legal for its endpoint
(:meth:`SpecIndex.is_legal`), so a grammar built on it cannot produce an illegal argument for
the endpoint it chose.

Security (OpenAPI semantics, with the reference's leniency): the credentials *allowed* are those
of every scheme named by the global or the operation's requirements (apiKey: its name in its
location; http, oauth2, openIdConnect: ``Authorization``); a credential is *required* when every
alternative of the effective requirement (the operation's, else the global one) needs it. An
alternative that is empty, or whose OAuth scopes are all ``none`` (Slack's "no scope required"),
needs nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from wapii_core.openapi.index import SpecIndex
from wapii_core.openapi.indexed_document import spec_document
from wapii_core.openapi.operations import OPERATION_METHODS
from wapii_core.openapi.refs import Resolver
from wapii_core.grammar.types import (ANY, BOOLEAN, NULL, NUMBER, STRING, Any_, Arr, Notes, Obj, OneOf, VType, one_of,
                                      value_type)

_PLACEHOLDER = re.compile(r"{([^{}]*)}")
_FIELDS = {"query": "params", "header": "headers"}
_ALWAYS_HEADERS = ("Accept", "Content-Type")  # sent by HTTP libraries themselves; legal as the judge says
_LIBRARY_HEADER = one_of([STRING, BOOLEAN, NULL])  # a value, or false / null to keep the library's own out


@dataclass(frozen=True)
class Arg:
    """One named argument of an endpoint (a query or header parameter, or a credential)."""

    name: str
    type: VType
    required: bool = False


@dataclass(frozen=True)
class Endpoint:
    """One operation: method, path template, and its arguments by field."""

    method: str
    template: str
    path_params: tuple[tuple[str, VType], ...]  # every placeholder of the template, in order
    query: tuple[Arg, ...]
    headers: tuple[Arg, ...]
    body: VType | None  # None: the operation declares no request body
    body_required: bool = False
    shadowed_by: tuple[str, ...] = ()
    """The templates the judge ranks before this one that may match some of its URLs
    (:meth:`SpecIndex.shadowing`): a URL that one of them matches resolves to another path, so a
    grammar that offers this endpoint's arguments after a URL must exclude those URLs."""

    @property
    def required_query(self) -> bool:
        return any(a.required for a in self.query)

    @property
    def required_headers(self) -> bool:
        return any(a.required for a in self.headers)


@dataclass(frozen=True)
class Api:
    """Every endpoint of one spec, with the server URL and the fallbacks taken."""

    server: str
    endpoints: tuple[Endpoint, ...]
    notes: tuple[str, ...]
    sha256: str


def load_api(index: SpecIndex) -> Api:
    """The :class:`Api` of an indexed spec (its schemas read from the spec document)."""
    doc, resolve = spec_document(index)
    notes = Notes()
    paths = resolve(doc.get("paths")) or {}
    endpoints = []
    for template in index.templates:
        item = resolve(paths.get(template)) or {}
        for method in OPERATION_METHODS:
            if method in index.methods(template):
                endpoints.append(_endpoint(index, doc, resolve, notes, template, method, item))
    return Api(index.server, tuple(endpoints), tuple(notes.items), index.sha256)


def _parameters(resolve: Resolver, item: dict[str, Any], op: dict[str, Any]) -> list[dict[str, Any]]:
    """The operation's parameters: its own, then the path-level ones it does not override."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for nodes in (op.get("parameters"), item.get("parameters")):
        for node in nodes if isinstance(nodes, list) else []:
            param = resolve(node)
            if isinstance(param, dict) and isinstance(param.get("name"), str) and isinstance(param.get("in"), str):
                out.setdefault((param["name"], param["in"]), param)
    return list(out.values())


def _schema_of(resolve: Resolver, param: dict[str, Any]) -> Any:
    if "schema" in param:
        return param["schema"]
    content = resolve(param.get("content"))
    if isinstance(content, dict) and content:
        media = resolve(next(iter(content.values())))
        return media.get("schema") if isinstance(media, dict) else None
    return None


def _endpoint(index: SpecIndex, doc: dict[str, Any], resolve: Resolver, notes: Notes, template: str,
              method: str, item: dict[str, Any]) -> Endpoint:
    op = resolve(item.get(method)) or {}
    where = f"{method.upper()} {template}"
    params = _parameters(resolve, item, op)
    declared_path = {p["name"]: p for p in params if p["in"] == "path"}
    path_params = []
    for name in _PLACEHOLDER.findall(template):
        param = declared_path.get(name)
        kind = value_type(_schema_of(resolve, param), resolve, notes, f"{where} path {name}") if param else STRING
        path_params.append((name, kind))
    fields: dict[str, list[Arg]] = {"params": [], "headers": []}
    for param in params:
        field = _FIELDS.get(param["in"])
        if field is None:
            if param["in"] == "cookie":
                notes.add(where, f"cookie parameter {param['name']!r} left out (axios cannot set cookies per call)")
            continue
        if not index.is_legal(param["name"], field, method, template):
            notes.add(where, f"parameter {param['name']!r} left out: the judge does not count it legal in {field}")
            continue
        kind = value_type(_schema_of(resolve, param), resolve, notes, f"{where} {param['in']} {param['name']}")
        fields[field].append(Arg(param["name"], kind, param.get("required") is True))
    for field, arg in _credentials(index, doc, resolve, notes, op, method, template):
        if all(a.name != arg.name for a in fields[field]):
            fields[field].append(arg)
    for name in _ALWAYS_HEADERS:
        if index.is_legal(name, "headers", method, template) and all(a.name != name for a in fields["headers"]):
            fields["headers"].append(Arg(name, _LIBRARY_HEADER))
    body, body_required = _body(index, resolve, notes, op, method, template, where)
    return Endpoint(method, template, tuple(path_params), tuple(fields["params"]), tuple(fields["headers"]),
                    body, body_required, tuple(index.shadowing(template)))


def _body(index: SpecIndex, resolve: Resolver, notes: Notes, op: dict[str, Any], method: str, template: str,
          where: str) -> tuple[VType | None, bool]:
    request_body = resolve(op.get("requestBody"))
    content = request_body.get("content") if isinstance(request_body, dict) else None
    if not (isinstance(content, dict) and content):
        return None, False
    media = resolve(next(iter(content.values())))
    schema = media.get("schema") if isinstance(media, dict) else None
    body = value_type(schema, resolve, notes, f"{where} body") if schema is not None else Obj(extra=None)
    legal = _legal_keys(body, lambda name: index.is_legal(name, "data", method, template))
    if legal != body:
        notes.add(where, "body keys limited to the declared properties the judge counts legal")
    return legal, request_body.get("required") is True


def _legal_keys(body: VType, legal: Callable[[str], bool]) -> VType:
    """``body`` with only the top-level keys ``legal`` allows, in every alternative: the judge
    counts a key legal only when it is a top-level property of the schema, so the keys of
    ``oneOf`` alternatives, and of an untyped body (any value), are not."""
    if isinstance(body, Obj):
        return Obj(tuple(p for p in body.props if legal(p.name)), None, body.unique)
    if isinstance(body, OneOf):
        return one_of([_legal_keys(option, legal) for option in body.options])
    if isinstance(body, Any_):
        return one_of([Obj(), STRING, NUMBER, BOOLEAN, NULL, Arr(ANY)])
    return body


def _credentials(index: SpecIndex, doc: dict[str, Any], resolve: Resolver, notes: Notes, op: dict[str, Any],
                 method: str, template: str) -> list[tuple[str, Arg]]:
    """(field, credential) pairs the operation allows; required as the module docstring says."""
    components = resolve(doc.get("components"))
    schemes = resolve(components.get("securitySchemes")) if isinstance(components, dict) else None
    schemes = schemes if isinstance(schemes, dict) else {}
    global_req = doc.get("security") if isinstance(doc.get("security"), list) else []
    op_req = op.get("security") if isinstance(op.get("security"), list) else None
    effective = op_req if op_req is not None else global_req

    def needs(alternative: Any) -> set[tuple[str, str]]:
        if not isinstance(alternative, dict):
            return set()
        creds: set[tuple[str, str]] = set()
        for name, scopes in alternative.items():
            if isinstance(scopes, list) and scopes and all(s == "none" for s in scopes):
                continue
            cred = _credential(resolve(schemes.get(name)), notes, f"{method.upper()} {template}")
            if cred:
                creds.add(cred)
        return creds

    allowed: list[tuple[str, str]] = []
    for alternative in list(global_req) + list(op_req or []):
        for name in alternative if isinstance(alternative, dict) else ():
            cred = _credential(resolve(schemes.get(name)), notes, f"{method.upper()} {template}")
            if cred and cred not in allowed:
                allowed.append(cred)
    required = set.intersection(*(needs(a) for a in effective)) if effective else set()
    return [(field, Arg(name, STRING, (field, name) in required)) for field, name in allowed
            if index.is_legal(name, field, method, template)]


def _credential(scheme: Any, notes: Notes, where: str) -> tuple[str, str] | None:
    """(field, name) a security scheme's credential is passed in, or None (cookies, unknown kinds)."""
    if not isinstance(scheme, dict):
        return None
    kind = scheme.get("type")
    if kind == "apiKey":
        field = _FIELDS.get(scheme.get("in"))
        if field is None or not isinstance(scheme.get("name"), str):
            notes.add(where, f"apiKey scheme in {scheme.get('in')!r} left out")
            return None
        return field, scheme["name"]
    if kind in ("http", "oauth2", "openIdConnect"):
        return "headers", "Authorization"
    return None
