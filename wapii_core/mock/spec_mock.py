"""The mock derived from one spec: built once (:meth:`SpecMock.load`), a fresh responder per sample.

Deriving reads the parsed document wapii already holds (:func:`~wapii_core.openapi.spec_file.read_spec`:
OpenAPI 3, Swagger 2 through its conversion), plans every operation (:mod:`wapii_core.mock.plan`)
and compiles each path template for matching; answers (examples checked, schemas generated) are
made lazily, per operation, when first asked for. :meth:`SpecMock.responder` gives a
:class:`~wapii_core.mock.responder.SpecResponder` with an empty store of its own.
"""

from __future__ import annotations

import copy
import random
import re
import threading
from pathlib import Path
from typing import Any

from wapii_core.base.errors import InputError
from wapii_core.mock.declaration import Declaration, check_against, find_declaration
from wapii_core.mock.faults import FaultPlan
from wapii_core.mock.incoming import Incoming
from wapii_core.mock.plan import ID_FIELDS, Collection, Pagination, Planner, Step
from wapii_core.mock.responder import MESSAGE_FIELDS, NO_BODY, SpecResponder, _rng
from wapii_core.mock.schemas import DeclaredResponse, SpecSchemas
from wapii_core.mock.store import Record, Store
from wapii_core.mock.values import ValueMaker
from wapii_core.openapi.refs import Resolver

MAX_PATHS = 20_000
"""Path templates a spec may have for the mock to derive from it (GitHub's has about 900)."""
MAX_OPERATIONS = 50_000
CACHED_MOCKS = 8
"""Derived mocks :meth:`SpecMock.for_spec` keeps per process."""
VARIANTS = 4
"""``oneOf`` / ``anyOf`` alternatives tried for an answer that must validate."""
_PLACEHOLDER = re.compile(r"{([^{}]+)}")
_PAGE_TOKENS = ("nextPageToken", "next_page_token", "next_cursor", "nextCursor", "next_token", "cursor")
_TOTALS = ("total", "total_count", "totalCount", "count", "totalItems", "total_items")


class SpecMock:
    """A stateful mock derived from one OpenAPI description (see the module docstring)."""

    def __init__(self, document: dict[str, Any], where: Path | str, declaration: Declaration | None = None) -> None:
        paths = document.get("paths")
        if not isinstance(paths, dict):
            raise InputError(where, "has no 'paths' object")
        if len(paths) > MAX_PATHS:
            raise InputError(where, f"has {len(paths)} paths; the mock derives from at most {MAX_PATHS}")
        if declaration is not None:
            check_against(declaration, where, document)
        self.document = document
        self.where = where
        self.declaration = declaration
        self.resolve = Resolver(document, where, lenient=True)
        self.schemas = SpecSchemas(document, self.resolve)
        self.values = ValueMaker(self.resolve, self.schemas.openapi31, self.schemas.valid)
        from urllib.parse import urlsplit

        servers = document.get("servers")
        url = servers[0].get("url") if isinstance(servers, list) and servers and isinstance(servers[0], dict) else "/"
        self.server = str(url or "/")
        self.server_path = urlsplit(self.server).path.rstrip("/")
        self.steps, self.collections = Planner(self.schemas, self.values, declaration).plan()
        if len(self.steps) > MAX_OPERATIONS:
            raise InputError(where, f"has {len(self.steps)} operations; the mock derives from at most {MAX_OPERATIONS}")
        self.credential_fields = tuple(declaration.credentials) if declaration else ()
        components = self.resolve(document.get("components"))
        schemes = self.resolve(components.get("securitySchemes")) if isinstance(components, dict) else None
        self.security_schemes = {k: self.resolve(v) for k, v in schemes.items()} if isinstance(schemes, dict) else {}
        self._patterns: dict[str, re.Pattern[str]] = {}
        self._groups: dict[str, dict[str, str]] = {}
        self._literal: dict[str, list[str]] = {}
        self._by_segments: dict[int, list[str]] = {}
        for template in paths:
            self._by_segments.setdefault(str(template).strip("/").count("/"), []).append(str(template))
        self._skeletons: dict[tuple[str, str, str], Any] = {}
        self._validator: Any = None
        self._lock = threading.Lock()

    @classmethod
    def load(cls, spec: Path | str, declaration: Path | Declaration | None = None) -> "SpecMock":
        """The mock of the spec file at ``spec``, with ``declaration`` (a file or a parsed one; default:
        the one :func:`~wapii_core.mock.declaration.find_declaration` finds for it)."""
        from wapii_core.mock.declaration import read_declaration
        from wapii_core.openapi.spec_file import read_spec

        spec = Path(spec)
        document = read_spec(spec)
        if isinstance(declaration, Path):
            declaration = read_declaration(declaration)
        elif declaration is None:
            found = find_declaration(spec, document)
            declaration = found[0] if found else None
        mock = cls(document, spec, declaration)
        mock.spec_path = spec
        return mock

    spec_path: Path | None = None

    @classmethod
    def for_spec(cls, spec: Path | str) -> "SpecMock":
        """:meth:`load` with the declaration found for it, memoised per spec content and declaration
        (:data:`CACHED_MOCKS` per process): what a judge holding many samples of one spec calls."""
        from wapii_core.openapi.parsing import read_document
        from wapii_core.openapi.spec_file import read_spec

        spec = Path(spec)
        document = read_document(spec)
        found = find_declaration(spec, read_spec(spec))
        key = (document.sha256, found[0].model_dump_json() if found else "")
        with _memo_lock:
            mock = _memo.get(key)
        if mock is None:
            mock = cls.load(spec, found[0] if found else None)
            with _memo_lock:
                _memo[key] = mock
                while len(_memo) > CACHED_MOCKS:
                    del _memo[next(iter(_memo))]
        return mock

    def responder(self, seed: int = 0, *, setup: list[dict[str, Any]] | None = None,
                  faults: FaultPlan | dict[str, Any] | None = None, open_world: bool = False) -> SpecResponder:
        """A responder with a fresh store: ``seed`` decides every generated value; ``setup``: request
        configurations (``url``, ``method``, ``headers``, ``params``, ``data``) replayed first, their
        answers not counted by the fault plan; ``faults``: the fault plan; ``open_world``: every
        identifier names an object (generated on first use), even in collections the spec can create in."""
        plan = FaultPlan.model_validate(faults) if isinstance(faults, dict) else faults
        responder = SpecResponder(self, seed, None, open_world)
        for config in setup or []:
            response = responder.answer(config_request(config))
            if response.status >= 400:
                raise InputError(str(config.get("url")), f"setup request answered {response.status}: {response.reason}")
        from wapii_core.mock.faults import FaultState

        responder.faults = FaultState(plan)
        return responder

    # ------------------------------------------------------------------ matching

    def templates_for(self, path: str) -> list[str]:
        """The templates matching ``path`` (relative to the server), fewest placeholders first."""
        segments = path.strip("/").count("/")
        found = [t for t in self._by_segments.get(segments, ()) if self.pattern(t).fullmatch(path)]
        return sorted(found, key=lambda t: (len(_PLACEHOLDER.findall(t)), -len(t)))

    def pattern(self, template: str) -> re.Pattern[str]:
        """The template as a regular expression over a path, each placeholder one segment's text."""
        found = self._patterns.get(template)
        if found is None:
            parts = _PLACEHOLDER.split(template)
            source, names = "", {}
            for i, part in enumerate(parts):
                if i % 2 == 0:
                    source += re.escape(part)
                elif part in names.values():
                    source += "[^/]+"
                else:
                    names[f"g{i}"] = part
                    source += f"(?P<g{i}>[^/]+)"
            found = re.compile(source)
            self._groups[template] = names
            self._patterns[template] = found
        return found

    def path_values(self, template: str, path: str) -> dict[str, str]:
        """The path parameters' values in ``path`` (which the template matches)."""
        from urllib.parse import unquote

        match = self.pattern(template).fullmatch(path)
        if match is None:
            return {}
        return {self._groups[template][g]: unquote(v) for g, v in match.groupdict().items()}

    # ------------------------------------------------------------------ security and validation

    def security_for(self, template: str, method: str) -> Any:
        operation = self.schemas.operation(template, method)
        return operation.get("security") if "security" in operation else self.document.get("security")

    def security_text(self, template: str, method: str) -> str:
        alternatives = self.security_for(template, method) or []
        return " or ".join(" and ".join(a) for a in alternatives if isinstance(a, dict)) or "credentials"

    def challenge(self, template: str, method: str) -> str:
        for alternative in self.security_for(template, method) or []:
            for name in alternative if isinstance(alternative, dict) else ():
                scheme = self.security_schemes.get(name) or {}
                if scheme.get("type") == "http":
                    return str(scheme.get("scheme", "Bearer")).capitalize()
                if scheme.get("type") == "apiKey":
                    return f'ApiKey name="{scheme.get("name")}" in="{scheme.get("in")}"'
        return "Bearer"

    def validate(self, incoming: Incoming, template: str, path_params: dict[str, str]) -> list[str]:
        """wapii's request validation of the request (the judge's validator): each violation as text."""
        if self._validator is None:
            from wapii_core.openapi.request_validation import OperationValidator

            with self._lock:
                if self._validator is None:
                    self._validator = OperationValidator(self.document)
        headers = dict(incoming.headers)
        config: dict[str, Any] = {"url": self.server.rstrip("/") + incoming.path, "method": incoming.method,
                                  "headers": headers, "params": incoming.params(), "path_params": path_params}
        if incoming.data is not None:
            config["data"] = incoming.data
        return [str(v) for v in self._validator.validate(config, template)]

    def declares(self, step: Step, status: int) -> bool:
        return any(r.code == status and r.status.isdigit() for r in step.responses)

    # ------------------------------------------------------------------ objects

    def new_identifier(self, collection: Collection, seed: int, number: int, store: Store) -> str:
        """A fresh identifier for the ``number``-th object created in ``collection``."""
        schema = self.values.merged(collection.id_schema) if collection.id_schema is not None else {}
        kind = self.values.kind(schema) if schema else "string"
        if kind in ("integer", "number"):
            return str(number)
        plain = not any(k in schema for k in ("pattern", "format", "enum", "maxLength"))
        if plain:
            return str(1_200_000_000_000 + 1000 * (seed % 1_000_000) + number)
        for attempt in range(20):
            value = self.values.make(schema, _rng(seed, "id", collection.name, number, attempt), collection.id_field)
            if isinstance(value, (str, int)) and str(value) and store.get(collection.name, str(value)) is None \
                    and "/" not in str(value):
                return str(value)
        return f"{collection.name[:1]}{number}"

    def overlay(self, collection: Collection, obj: dict[str, Any], fields: dict[str, Any], identifier: str) -> dict[str, Any]:
        """``obj`` with each field the request set that the object schema declares and that validates
        against its property's schema, and the identifier in the identifier field."""
        properties = self.values.object_properties(collection.object_schema) if collection.object_schema else {}
        for name, value in fields.items():
            sub = properties.get(name)
            if sub is not None and self.schemas.valid(sub, value):
                obj[name] = copy.deepcopy(value)
            elif sub is not None and isinstance(value, str) and self.values.kind(sub) in ("object",):
                linked = self._reference(sub, value)
                if linked is not None:
                    obj[name] = linked
            elif sub is None and not properties and collection.object_schema is None:
                obj[name] = copy.deepcopy(value)
        self._set_identifier(collection, obj, identifier)
        return obj

    def _reference(self, schema: Any, value: str) -> dict[str, Any] | None:
        """An object naming ``value`` (a request that sets ``"project": "123"`` where the answer holds
        ``{"gid": "123", ...}``), where the schema allows it."""
        made = self.values.make(schema, random.Random(value))
        if not isinstance(made, dict):
            return None
        for name in ID_FIELDS:
            if name in self.values.object_properties(schema):
                made[name] = value
                return made if self.schemas.valid(schema, made) else None
        return None

    def _set_identifier(self, collection: Collection, obj: dict[str, Any], identifier: str) -> None:
        field = collection.id_field
        sub = self.values.object_properties(collection.object_schema).get(field) if collection.object_schema else None
        if sub is None and collection.object_schema is not None:
            return
        if sub is not None and self.values.kind(sub) in ("integer", "number"):
            try:
                obj[field] = int(identifier)
                return
            except ValueError:
                pass
        if sub is None or self.values.kind(sub) in (None, "string"):
            obj[field] = identifier

    def shaped(self, collection: Collection, schema: Any, obj: dict[str, Any], identifier: str, seed: int) -> Any:
        """``obj`` as an answer whose schema is ``schema`` carries it: itself where it validates, else
        a value generated for ``schema`` with every property of ``obj`` that validates there."""
        if schema is None or self.schemas.valid(schema, obj):
            return copy.deepcopy(obj)
        made = self.generate(schema, _rng(seed, "shape", collection.name, identifier))
        if not isinstance(made, dict):
            return made
        properties = self.values.object_properties(schema)
        for name, value in obj.items():
            if name in properties and self.schemas.valid(properties[name], value):
                made[name] = copy.deepcopy(value)
        return made

    def record_delete(self, store: Store, collection: str, identifier: str) -> None:
        store.delete(collection, identifier)

    def belongs(self, record: Record, parent: str, parent_id: str) -> bool:
        """Whether an object belongs to the parent a list is scoped to: linked to it, or one of its
        properties names it (``"project": "1"``, ``{"gid": "1"}``, ``["1"]``)."""
        if record.links.get(parent) == parent_id:
            return True
        if parent in record.links:
            return False
        from wapii_core.mock.plan import _singular

        one = _singular(parent)
        return any(_names(record.object.get(key), parent_id)
                   for key in (parent, one, f"{one}_id", f"{one}Id", f"{one}_gid", f"{one}_ids", f"{one}Ids"))

    def matches(self, obj: dict[str, Any], name: str, value: Any) -> bool:
        """A list's query parameter as a filter: kept where the object has no such property, where
        the values are equal (as text), where a property object's identifier is it, or, for text,
        where it holds the value (case ignored)."""
        if name not in obj:
            return True
        have = obj[name]
        wanted = value if isinstance(value, list) else [value]
        for want in wanted:
            text = str(want)
            if _names(have, text):
                return True
            if isinstance(have, bool) and text.lower() == str(have).lower():
                return True
            if isinstance(have, str) and text.lower() in have.lower():
                return True
        return False

    # ------------------------------------------------------------------ answers

    def success_status(self, step: Step) -> int:
        code = step.success.code if step.success is not None else None
        return code if code is not None and 200 <= code < 400 else 200

    def answer_schema(self, step: Step) -> tuple[Any, bool]:
        """The schema of the object in ``step``'s answer, and whether the answer holds a list of it."""
        if step.success is None or step.success.schema is None:
            return None, False
        schema = step.success.schema
        for key in step.wrapper or ():
            schema = self.values.object_properties(schema).get(key)
        if self.values.plain_kind(schema) == "array":
            return self.values.merged(schema).get("items"), True
        return schema, False

    def minimum_items(self, step: Step) -> int:
        """The ``minItems`` of a list answer's array (0: none declared)."""
        schema = step.success.schema if step.success is not None else None
        for key in step.wrapper or ():
            schema = self.values.object_properties(schema).get(key)
        low = self.values.merged(schema).get("minItems") if schema is not None else None
        return min(low, 100) if isinstance(low, int) and low > 0 else 0

    def items_schema(self, step: Step) -> Any:
        schema, _ = self.answer_schema(step)
        return schema

    def skeleton(self, step: Step, response: DeclaredResponse | None, rng: random.Random, empty: bool = False) -> Any:
        """An answer for ``response``: its first example that validates, else a value generated from
        its schema (the first of :data:`VARIANTS` alternatives that validates); no schema: nothing
        (``empty``) or ``{}``."""
        if response is None or response.schema is None:
            return NO_BODY if empty or response is None or response.media is None and step.action == "delete" else {}
        key = (step.template, step.method, response.status)
        example = self._skeletons.get(key, _MISSING)
        if example is _MISSING:
            example = next((e for e in response.examples if self.schemas.valid(response.schema, e)), None)
            self._skeletons[key] = example
        if example is not None:
            return copy.deepcopy(example)
        return self.generate(response.schema, rng)

    def generate(self, schema: Any, rng: random.Random, name: str = "") -> Any:
        """A value generated for ``schema``: the first of :data:`VARIANTS` (each taking other ``oneOf`` /
        ``anyOf`` alternatives) that validates, else the last."""
        made = None
        seed = rng.random()
        for variant in range(VARIANTS):
            made = self.values.make(schema, random.Random(seed), name, variant=variant)
            if variant == VARIANTS - 1 or self.schemas.valid(schema, made):
                break
        return made

    def echo_envelope(self, step: Step, body: dict[str, Any], incoming: Incoming, obj: dict[str, Any],
                      collection: Collection) -> dict[str, Any]:
        """A create's or update's answer envelope with each top-level property the request set, or the
        object's identifier field, copied in where it validates (Slack's ``{"channel": ..., "ts": ...}``)."""
        assert step.success is not None
        properties = self.values.object_properties(step.success.schema)
        wrapper = (step.wrapper or ("",))[0]
        for name, sub in properties.items():
            if name == wrapper:
                continue
            value = obj.get(name) if name == collection.id_field else incoming.value(name)
            if value is not None and self.schemas.valid(sub, value):
                body[name] = copy.deepcopy(value)
        return body

    def page_fields(self, step: Step, body: Any, token: str | None, total: int, paging: Pagination) -> Any:
        """A list answer's paging properties where its schema declares them: the next page's token
        (``null`` or left out on the last page), the total, ``has_more``."""
        if not isinstance(body, dict) or step.success is None:
            return body
        properties = self.values.object_properties(step.success.schema)
        required = set(self.values.merged(step.success.schema).get("required") or [])

        def put(name: str, value: Any) -> None:
            sub = properties.get(name)
            if sub is None:
                return
            if value is None and not self.schemas.valid(sub, None):
                if name not in required:
                    body.pop(name, None)
                return
            if self.schemas.valid(sub, value):
                body[name] = value

        for name in _PAGE_TOKENS:
            put(name, token if token is not None else (None if name not in required else ""))
        if "next_page" in properties:
            sub = properties["next_page"]
            page = None
            if token is not None:
                page = {k: v for k, v in {"offset": token, "path": f"{step.template}?{paging.offset}={token}",
                                          "uri": f"{self.server.rstrip('/')}{step.template}?{paging.offset}={token}"}.items()
                        if k in self.values.object_properties(sub)}
            put("next_page", page)
        if "response_metadata" in properties:
            put("response_metadata", {"next_cursor": token or ""})
        if "has_more" in properties:
            put("has_more", token is not None)
        for name in _TOTALS:
            put(name, total)
        return body

    def error_body(self, step: Step | None, status: int, message: str, rng: random.Random,
                   extra: dict[str, Any] | None) -> Any:
        """A fault's body (see :mod:`wapii_core.mock.responder`)."""
        declared = None
        if step is not None:
            declared = next((r for r in step.responses if r.code == status and r.status.isdigit()), None) or next(
                (r for r in step.responses if r.code == status // 100 * 100 and not r.status.isdigit()), None) or next(
                (r for r in step.responses if r.status == "default"), None)
        if declared is None or declared.schema is None:
            return {"error": {"status": status, "message": message, **(extra or {})}}
        body = self.skeleton(step, declared, rng)  # type: ignore[arg-type]
        return self._with_message(declared.schema, body, message)

    def _with_message(self, schema: Any, body: Any, message: str, depth: int = 0) -> Any:
        if not isinstance(body, dict) or depth > 3:
            return body
        properties = self.values.object_properties(schema)
        for name in MESSAGE_FIELDS:
            if name in properties and self.schemas.valid(properties[name], message):
                body[name] = message
                return body
        for name, sub in properties.items():
            if isinstance(body.get(name), dict):
                body[name] = self._with_message(sub, body[name], message, depth + 1)
            elif isinstance(body.get(name), list) and body[name] and isinstance(body[name][0], dict):
                items = self.values.merged(sub).get("items")
                body[name][0] = self._with_message(items, body[name][0], message, depth + 1)
        return body


_MISSING = object()
_memo: dict[tuple[str, str], SpecMock] = {}
_memo_lock = threading.Lock()


def _names(value: Any, identifier: str) -> bool:
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return str(value) == identifier
    if isinstance(value, dict):
        return any(str(value.get(k)) == identifier for k in ID_FIELDS if k in value)
    if isinstance(value, list):
        return any(_names(v, identifier) for v in value[:100])
    return False


def config_request(config: dict[str, Any]) -> "Any":
    """The :class:`~wapii_core.mock.exchange.MockRequest` a WAPIIBench request configuration
    (``url``, ``method``, ``headers``, ``params``, ``data``) describes, sent as a client sends it
    (a JSON body unless its Content-Type says a form)."""
    import json
    from urllib.parse import urlencode

    from wapii_core.base.media import form_kind
    from wapii_core.mock.exchange import MockRequest

    url = str(config.get("url", ""))
    params = config.get("params") or {}
    if isinstance(params, dict) and params:
        pairs = []
        for name, value in params.items():
            for item in value if isinstance(value, list) else [value]:
                pairs.append((name, _text(item)))
        url += ("&" if "?" in url else "?") + urlencode(pairs)
    headers = [(str(k), _text(v)) for k, v in (config.get("headers") or {}).items() if v is not None]
    content_type = next((v for k, v in headers if k.lower() == "content-type"), None)
    data = config.get("data")
    body = b""
    if data is not None:
        kind = form_kind(content_type)
        if kind == "form" and isinstance(data, dict):
            body = urlencode([(k, _text(i)) for k, v in data.items() for i in (v if isinstance(v, list) else [v])]).encode()
        elif kind == "multipart" and isinstance(data, dict):
            boundary = "wapii-mock-boundary"
            body = "".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{_text(v)}\r\n'
                           for k, v in data.items()).encode() + f"--{boundary}--\r\n".encode()
            headers = [(k, v) for k, v in headers if k.lower() != "content-type"]
            headers.append(("Content-Type", f"multipart/form-data; boundary={boundary}"))
        else:
            body = json.dumps(data).encode()
            if content_type is None:
                headers.append(("Content-Type", "application/json"))
    return MockRequest(str(config.get("method", "get")).upper(), url, tuple(headers), body)


def _text(value: Any) -> str:
    import json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)
