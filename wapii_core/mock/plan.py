"""What each operation of a spec does to the mock's store, inferred from its path, method and schemas.

A path is read as literal segments and groups of placeholders (``/repos/{owner}/{repo}/issues``:
``repos``, ``{owner}/{repo}``, ``issues``). Each placeholder group names an object of the
collection named by the literal just before it (``{owner}/{repo}`` an object of ``repos``, its
identifier ``owner/repo``); collections are named by that literal alone, so ``/tasks/{task_gid}``
and ``/projects/{project_gid}/tasks`` act on one collection, ``tasks``.

- A path that ends in a plain literal is a **collection path**: ``GET`` lists it when its answer
  holds an array (at the top, or in a wrapper property); ``POST`` creates in it when the spec also
  has an item path for that collection, lists it (at any path), or has paths that go through one
  of its objects (``/loans/{loanId}/return``).
- A path that ends in a placeholder group is an **item path**: ``GET`` reads, ``PUT``, ``PATCH``
  and ``POST`` update (the request's fields merged into the object: many APIs' ``PUT`` changes only
  the fields sent, and a full replacement sends them all), ``DELETE`` removes.
- Every earlier placeholder group is the **scope**: the objects the path goes through must exist;
  an object created under a scope is linked to it, and a list under a scope keeps linked objects
  (or objects one of whose properties names the scope's object).
- An action on an object (``POST /loans/{loanId}/return``) that answers that very object (its
  collection's object schema) **updates** it.
- Anything else (``/projects/{project_gid}/duplicate``, ``/values/{range}:append``, a singleton
  such as ``/users/me``) is **other**: answered from the spec, changing nothing.

The **identifier field** of a collection is the first property of its object schema among: the
item path's (last) parameter name, that name's last word (``project_gid`` -> ``gid``, ``bookId`` -> ``id``,
``issue_number`` -> ``number``), then ``id``, ``gid``, ``uuid``, ``key``, ``name``. The object's
**wrapper** is where it sits in the answer: the body itself, or a property ``data`` / ``item`` /
``result`` / the collection's (singular) name, or, for a list, the one array property.

A collection that some operation creates in is **closed**: an identifier the store does not hold
is a 404. Any other collection is **open**: the spec gives no way to make its objects, so any
identifier names one, generated from the seed on first use. A dataset's declaration
(:mod:`wapii_core.mock.declaration`) overrides all of this per operation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from wapii_core.mock.declaration import Declaration
from wapii_core.mock.schemas import DeclaredResponse, SpecSchemas
from wapii_core.mock.values import ValueMaker
from wapii_core.openapi.operations import OPERATION_METHODS

_PLACEHOLDER = re.compile(r"^{([^{}]+)}$")
_PLAIN = re.compile(r"^[A-Za-z0-9_-]+$")
WRAPPERS = ("data", "item", "result", "results", "items", "value", "values", "records", "entries", "elements")
ID_FIELDS = ("id", "gid", "uuid", "key", "name", "slug")
LIMIT_NAMES = ("limit", "per_page", "perPage", "page_size", "pageSize", "maxResults", "max_results", "count", "size",
               "top", "$top")
OFFSET_NAMES = ("offset", "cursor", "pageToken", "page_token", "page", "start", "starting_after", "after", "skip",
                "$skip", "next", "marker", "continuation")


@dataclass(frozen=True)
class Pagination:
    """The query parameters a list is paged with."""

    limit: str | None
    offset: str | None
    offset_kind: str  # "index" (an integer position), "page" (a page number from 1), "token" (an opaque string)


@dataclass
class Step:
    """What one operation does (see the module docstring)."""

    template: str
    method: str
    action: str  # create, read, update, delete, list, other
    collection: str | None = None
    id_params: tuple[str, ...] = ()  # path parameters that together are the object's identifier
    id_request_field: str | None = None  # a declared operation's request field holding the identifier
    scope: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (collection, path parameters) the path goes through
    under: dict[str, str] = field(default_factory=dict)  # parent collection -> request field (declared)
    success: DeclaredResponse | None = None
    responses: tuple[DeclaredResponse, ...] = ()
    wrapper: tuple[str, ...] | None = None  # keys from the body to the object / the list's array
    pagination: Pagination | None = None
    not_found: Any = None  # a declared operation's answer to an unknown identifier (status, body)


@dataclass
class Collection:
    """A collection of the store."""

    name: str
    id_field: str = "id"
    object_schema: Any = None
    id_schema: Any = None
    closed: bool = False


def groups(template: str) -> list[tuple[str, Any]]:
    """``("literal", text)`` and ``("params", (names...))`` for each run of segments; a segment that
    mixes text and placeholders is ``("mixed", text)``."""
    out: list[tuple[str, Any]] = []
    for segment in template.strip("/").split("/"):
        match = _PLACEHOLDER.match(segment)
        if match:
            if out and out[-1][0] == "params":
                out[-1] = ("params", out[-1][1] + (match.group(1),))
            else:
                out.append(("params", (match.group(1),)))
        elif "{" in segment or not _PLAIN.match(segment):
            out.append(("mixed", segment))
        elif segment:
            out.append(("literal", segment))
    return out


class Planner:
    """Builds the :class:`Step` of every operation and the :class:`Collection`s they act on."""

    def __init__(self, schemas: SpecSchemas, values: ValueMaker, declaration: Declaration | None) -> None:
        self.schemas = schemas
        self.values = values
        self.declaration = declaration

    def plan(self) -> tuple[dict[tuple[str, str], Step], dict[str, Collection]]:
        paths = self.schemas.document.get("paths") or {}
        shapes: dict[str, tuple[str, str | None, tuple[str, ...], tuple]] = {}
        items: set[str] = set()  # collections with an item path, listed, or that other paths go through
        listed_at: dict[str, set[str]] = {}
        for template, node in paths.items():
            shape = self._shape(str(template))
            shapes[template] = shape
            if shape[0] == "item" and shape[1]:
                items.add(shape[1])
            items.update(parent for parent, _ in shape[3])
            node = self.schemas.resolve(node)
            if shape[0] == "collection" and isinstance(node, dict) and "get" in node:
                listed_at.setdefault(template, set()).add("get")
                items.add(shape[1])
        steps: dict[tuple[str, str], Step] = {}
        collections: dict[str, Collection] = {}
        for template, node in paths.items():
            node = self.schemas.resolve(node)
            if not isinstance(node, dict):
                continue
            for method in OPERATION_METHODS:
                if method not in node:
                    continue
                step = self._step(str(template), method, shapes[template], items, listed_at)
                steps[(str(template), method)] = step
                if step.collection is not None:
                    collections.setdefault(step.collection, Collection(step.collection))
                for parent, _ in step.scope:
                    collections.setdefault(parent, Collection(parent))
                for parent in step.under:
                    collections.setdefault(parent, Collection(parent))
        self._describe(steps, collections)
        self._object_actions(steps, collections)
        return steps, collections

    def _object_actions(self, steps: dict[tuple[str, str], Step], collections: dict[str, Collection]) -> None:
        """An *other* ``POST`` / ``PUT`` / ``PATCH`` on an object (``/loans/{loanId}/return``) that
        answers that very object (the same schema as its collection's objects) updates it: the
        request's fields that the object holds merged in, the object answered."""
        for step in steps.values():
            if step.action != "other" or step.method not in ("post", "put", "patch") or not step.scope \
                    or self.declaration is not None and self.declaration.get(step.template, step.method) is not None:
                continue
            parent, names = step.scope[-1]
            segments = step.template.strip("/").split("/")
            if len(segments) < 2 or segments[-2] != "{" + names[-1] + "}":
                continue  # the action's segment must follow the object's own placeholder
            target = collections.get(parent)
            if target is None or target.object_schema is None or step.success is None or step.success.schema is None:
                continue
            wrapper = self._wrapper(step.success, False, parent)
            answered = self._at(step.success.schema, wrapper or ())
            if wrapper is None or self.schemas.resolve(answered) is not self.schemas.resolve(target.object_schema):
                continue
            step.action, step.collection, step.id_params, step.wrapper = "update", parent, names, wrapper
            step.scope = step.scope[:-1]

    def _shape(self, template: str) -> tuple[str, str | None, tuple[str, ...], tuple]:
        """(kind, collection, id params, scope) of a path: kind ``collection``, ``item`` or ``other``."""
        parts = groups(template)
        scope = []
        last_literal = None
        for i, (kind, value) in enumerate(parts):
            if kind == "literal":
                last_literal = value
            elif kind == "params":
                if i == len(parts) - 1:
                    if last_literal is None or parts[i - 1][0] != "literal":
                        return "other", None, (), tuple(scope)
                    return "item", last_literal, value, tuple(scope)
                if last_literal is not None and parts[i - 1][0] == "literal":
                    scope.append((last_literal, value))
            else:
                return "other", None, (), tuple(scope)
        if parts and parts[-1][0] == "literal":
            return "collection", parts[-1][1], (), tuple(scope)
        return "other", None, (), tuple(scope)

    def _step(self, template: str, method: str, shape: tuple, items: set[str],
              listed_at: dict[str, set[str]]) -> Step:
        responses = tuple(self.schemas.responses(template, method))
        kind, collection, id_params, scope = shape
        success = _success(responses, method)
        step = Step(template, method, "other", responses=responses, success=success, scope=scope)
        declared = self.declaration.get(template, method) if self.declaration else None
        if declared is not None:
            step.action = declared.action
            step.collection = declared.collection if declared.action != "other" else None
            step.id_request_field = declared.id
            step.under = dict(declared.under)
            step.not_found = declared.not_found
            if declared.wrapper is not None:
                step.wrapper = tuple(k for k in declared.wrapper.split(".") if k)
            elif step.collection is not None:
                step.wrapper = self._wrapper(success, step.action == "list", step.collection)
            if step.action == "list":
                step.pagination = self._pagination(template, method)
            return step
        action = None
        if kind == "collection" and collection is not None:
            if method == "get":
                action = "list"
            elif method == "post" and (collection in items or "get" in listed_at.get(template, ())):
                action = "create"
        elif kind == "item" and collection is not None:
            action = {"get": "read", "put": "update", "patch": "update", "post": "update", "delete": "delete"} \
                .get(method)
        if action is None:
            return step
        wrapper = self._wrapper(success, action == "list", collection)
        if wrapper is None:
            return step  # a GET that answers no object / array: a singleton or a report, left stateless
        step.action, step.collection, step.id_params, step.wrapper = action, collection, id_params, wrapper
        if action == "list":
            step.pagination = self._pagination(template, method)
        return step

    def _wrapper(self, success: DeclaredResponse | None, listing: bool, collection: str | None) -> tuple[str, ...] | None:
        """Keys from the answer's body to the object (or, ``listing``, to the array); None when the
        declared answer holds no array to list (an answer without a schema: the body itself)."""
        if success is None or success.schema is None:
            return None if listing else ()
        schema, path = success.schema, []
        for _ in range(3):
            kind = self.values.kind(schema)
            if listing and kind == "array":
                return tuple(path)
            if kind != "object":
                return None if listing else tuple(path)
            properties = self.values.object_properties(schema)
            if not listing and any(name in properties for name in ID_FIELDS):
                return tuple(path)
            name = self._wrapper_property(properties, "array" if listing else "object", collection)
            if name is None:
                return None if listing else tuple(path)
            path.append(name)
            schema = properties[name]
        return None if listing else tuple(path)

    def _wrapper_property(self, properties: dict[str, Any], want: str, collection: str | None) -> str | None:
        names = list(WRAPPERS)
        if collection:
            names = [collection, _singular(collection), *names]
        for name in names:
            if name in properties and self.values.kind(properties[name]) in (want, "object"):
                return name
        if want == "array":
            arrays = [n for n, s in properties.items() if self.values.kind(s) == "array"]
            if len(arrays) == 1:
                return arrays[0]
        return None

    def _pagination(self, template: str, method: str) -> Pagination | None:
        names: dict[str, Any] = {}
        item = self.schemas.resolve((self.schemas.document.get("paths") or {}).get(template)) or {}
        for node in [*(self.schemas.operation(template, method).get("parameters") or []),
                     *(item.get("parameters") or [])]:
            param = self.schemas.resolve(node)
            if isinstance(param, dict) and param.get("in") == "query" and isinstance(param.get("name"), str):
                names.setdefault(param["name"], param.get("schema"))
        limit = next((n for n in LIMIT_NAMES if n in names), None)
        offset = next((n for n in OFFSET_NAMES if n in names), None)
        if limit is None and offset is None:
            return None
        kind = "token"
        if offset is not None:
            integer = self.values.kind(names[offset]) in ("integer", "number")
            kind = "page" if offset == "page" and integer else "index" if integer else "token"
        return Pagination(limit, offset, kind)

    # ------------------------------------------------------------------ collections

    def _describe(self, steps: dict[tuple[str, str], Step], collections: dict[str, Collection]) -> None:
        """Each collection's object schema, identifier field and whether it is closed."""
        order = {"read": 0, "create": 1, "update": 2, "list": 3}
        for step in sorted(steps.values(), key=lambda s: order.get(s.action, 9)):
            if step.collection is None:
                continue
            found = collections[step.collection]
            if step.action == "create":
                found.closed = True
            if step.success is None or step.success.schema is None:
                continue
            if found.object_schema is None and step.action in order:
                schema = self._at(step.success.schema, step.wrapper or ())
                if step.action == "list":
                    schema = self.values.merged(schema).get("items")
                elif self.values.kind(schema) == "array":  # a create answering [object]; an untyped {"items": ...}
                    schema = self.values.merged(schema).get("items")
                if self.values.kind(schema) == "object":
                    found.object_schema = schema
                    found.id_field = self._id_field(schema, step, steps)
                    found.id_schema = self.values.object_properties(schema).get(found.id_field)
        declared = self.declaration.operations if self.declaration else {}
        for operation in declared.values():
            if operation.collection in collections and operation.id_field:
                collections[operation.collection].id_field = operation.id_field
                schema = collections[operation.collection].object_schema
                collections[operation.collection].id_schema = self.values.object_properties(schema).get(
                    operation.id_field) if schema is not None else None

    def _at(self, schema: Any, keys: tuple[str, ...]) -> Any:
        for key in keys:
            schema = self.values.object_properties(schema).get(key)
        return schema

    def _id_field(self, schema: Any, step: Step, steps: dict[tuple[str, str], Step]) -> str:
        properties = self.values.object_properties(schema)
        groups = [s.id_params for s in steps.values() if s.collection == step.collection and s.id_params]
        candidates = []
        for param in groups[0][-1:] if groups else []:  # a composite identifier's last part names the object
            candidates += [param, _last_word(param)]
        for name in [*candidates, *ID_FIELDS]:
            if name in properties:
                return name
        return candidates[1] if len(candidates) > 1 and candidates[1] else "id"


def _success(responses: tuple[DeclaredResponse, ...], method: str) -> DeclaredResponse | None:
    """The success answer: 201 for a POST where declared, else the first 2xx (then ``default``)."""
    success = [r for r in responses if r.code is not None and 200 <= r.code < 300]
    if method == "post":
        created = [r for r in success if r.code == 201]
        if created:
            return created[0]
    with_body = [r for r in success if r.schema is not None]
    if success:
        return (with_body or success)[0]
    redirect = [r for r in responses if r.code is not None and 300 <= r.code < 400]
    if redirect:  # a download that only redirects: answered as declared
        return redirect[0]
    return next((r for r in responses if r.status == "default"), None)


def _last_word(name: str) -> str:
    words = re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", name.replace("-", "_"))
    return words[-1].lower() if words else name


def _singular(name: str) -> str:
    if name.endswith("ies"):
        return name[:-3] + "y"
    if name.endswith("s") and not name.endswith("ss"):
        return name[:-1]
    return name
