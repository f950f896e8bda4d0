"""The compiled engine of request validation: openapi-core's answers, built once per operation.

For each (template, method) it meets, :class:`CompiledSpec` works out once what openapi-core
would do for every request to it: the operation its path finder picks
(:mod:`wapii_core.openapi.path_finder`), that operation's parameters in openapi-core's order with
their location, style, explode, required flag, default and the cast of their schema type, the
request body's media types (with the JSON alias judging adds, see
:func:`wapii_core.openapi.openapi_core_engine.json_aliased`), the form fields' casts, and one jsonschema
``OAS30WriteValidator`` per schema, created exactly as openapi-core creates it (same class,
format checker and ``$ref`` resolver). A request then costs a few dictionary lookups, casts and
the jsonschema validation of the values it carries.

What it covers: parameters with a ``schema`` (not ``content``), in query, header, path or
cookie, with the default styles (form for query and cookie, simple for path and header), of
type string, integer, number, boolean, untyped (also composed of ``allOf`` / ``oneOf`` / ``anyOf``
parts of these types, cast part by part as openapi-core casts them) or arrays of these; bodies of
``application/json``, ``application/vnd.api+json``, ``application/x-www-form-urlencoded``
(fields cast like parameters) and ``multipart/form-data`` (parts read as text or bytes by their
schema, as openapi-core reads them), forms without an ``encoding`` or a composed schema at the
top; schemas whose ``$ref``s are local and without ``$id``. Everything else, and anything unexpected at run time, is left to openapi-core
(:meth:`CompiledSpec.validate` returns None). ``tests/test_openapi_engines.py`` compares the two
engines' answers request by request.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any, Callable
from urllib.parse import parse_qsl

from werkzeug.datastructures import Headers

from wapii_core.base.media import FORM_TYPE, MULTIPART_TYPE
from wapii_core.openapi.request_decoding import (
    OPENAPI_CORE_JSON,
    NO_COOKIES,
    CastFailure,
    EmptyQueryValue,
    MultiDict,
    Unsupported,
    array,
    boolean,
    composed,
    deserialise,
    find_media_type,
    form_load,
    multipart_parts,
    primitive,
    read_part,
    same,
    simple_load,
)
from wapii_core.openapi.path_finder import find, request_url
from wapii_core.openapi.openapi_core_engine import aliased_contents
from wapii_core.openapi.refs import Resolver
from wapii_core.openapi.violations import (
    Violation,
    Wire,
    cast_message,
    cast_where,
    parameter_where,
    schema_violations,
)


class CompiledSpec:
    """The compiled operations of one spec document (built lazily, one operation at a time)."""

    def __init__(self, document: dict[str, Any], server: str, openapi31: bool = False) -> None:
        from openapi_schema_validator import OAS30WriteValidator
        from referencing import Registry
        from referencing.jsonschema import DRAFT202012

        self.document = document
        self.server = server
        self._validator_class = OAS30WriteValidator
        # what jsonschema_path builds for openapi-core: the document as a 2020-12 resource at ""
        self._resolver = Registry().with_resource("", DRAFT202012.create_resource(self.document)).resolver("")
        self.deref = Resolver(self.document, "spec", through=False)  # a $ref it cannot follow: openapi-core judges
        self._aliased = {id(content) for content in aliased_contents(self.document)}
        self._checked: set[int] = set()
        self._operations: dict[tuple[str, str], _Operation | None] = {}
        self._lock = threading.Lock()

    def validate(self, wire: Wire, template: str, with_body: bool) -> list[Violation] | None:
        """The violations openapi-core would report, or None where it must answer itself."""
        key = (template, wire.method)
        if key not in self._operations:
            with self._lock:
                if key not in self._operations:
                    try:
                        self._operations[key] = self._compile(template, wire.method)
                    except Exception:  # noqa: BLE001 - Unsupported, or a spec shape openapi-core must judge
                        self._operations[key] = None
        operation = self._operations[key]
        if operation is None:
            return None
        try:
            return operation.validate(wire, with_body)
        except Exception:  # noqa: BLE001 - Unsupported, or a value openapi-core must judge
            return None

    # ------------------------------------------------------------------ compiling

    def _compile(self, template: str, method: str) -> _Operation:
        found = find(self.document, self.deref, method, request_url(self.server, template))
        if found is None:
            raise Unsupported("openapi-core finds no operation")
        return _Operation(self._parameters(found), self._body(found.operation), found.variables)

    def _parameters(self, found: Any) -> list[_Parameter]:
        out: list[_Parameter] = []
        seen: set[tuple[str, str]] = set()
        for owner in (found.operation, found.item):
            nodes = self.deref(owner.get("parameters", []))
            if not isinstance(nodes, list):
                raise Unsupported("parameters that are not a list")
            for node in nodes:
                param = self.deref(node)
                if not (isinstance(param, dict) and isinstance(param.get("name"), str)
                        and isinstance(param.get("in"), str)):
                    raise Unsupported("a parameter without a name or location")
                key = (param["name"], param["in"])
                if key not in seen:
                    seen.add(key)
                    out.append(self._parameter(param))
        return out

    def _parameter(self, param: dict[str, Any]) -> _Parameter:
        name, location = param["name"], param["in"]
        if location not in ("query", "header", "path", "cookie") or "content" in param or "schema" not in param:
            raise Unsupported(f"parameter {name!r}: a location, content or missing schema left to openapi-core")
        style = param.get("style", "simple" if location in ("path", "header") else "form")
        explode = param.get("explode", style == "form")
        if not isinstance(style, str) or not isinstance(explode, bool):
            raise Unsupported(f"parameter {name!r}: a malformed style or explode")
        if (style, location) not in (("form", "query"), ("form", "cookie"), ("simple", "path"), ("simple", "header")):
            raise Unsupported(f"parameter {name!r}: style {style} in {location}")
        schema = self.deref(param["schema"])
        schema_type = self._type(schema)
        allow_empty = param.get("allowEmptyValue")
        return _Parameter(
            name=name, location=location, where=parameter_where(name, location),
            load=form_load if style == "form" else simple_load, explode=explode, schema_type=schema_type or "",
            cast=self._cast(schema), validator=self._schema_validator(schema),
            required=param.get("required") is True, has_default="default" in schema, default=schema.get("default"),
            empty_check=location == "query" and allow_empty is not True)

    def _body(self, operation: dict[str, Any]) -> _Body | None:
        if "requestBody" not in operation:
            return None
        body = self.deref(operation["requestBody"])
        content = body.get("content") if isinstance(body, dict) else None
        if not isinstance(content, dict) or "$ref" in content or not all(isinstance(k, str) for k in content):
            raise Unsupported("a request body without a plain content object")
        if id(content) in self._aliased:
            content = {**content, "application/json": next(iter(content.values()))}
        media: dict[str, _Media] = {}
        for mimetype, node in content.items():
            try:
                media[mimetype] = self._media(mimetype, self.deref(node))
            except Unsupported as exc:  # compiled only if a request asks for it
                media[mimetype] = _Media(None, None, (), str(exc))
        return _Body(required=body.get("required") is True, content=media)

    def _media(self, mimetype: str, node: Any) -> _Media:
        form = mimetype in (FORM_TYPE, MULTIPART_TYPE)
        if not isinstance(node, dict) or (form and "encoding" in node):
            raise Unsupported(f"{mimetype}: not an object, or a form with an encoding")
        if "schema" not in node:
            return _Media(None, None, (), None)
        schema = self.deref(node["schema"])
        fields: tuple[_Field, ...] = ()
        if form:
            if not isinstance(schema, dict) or any(k in schema for k in ("allOf", "oneOf", "anyOf")):
                raise Unsupported("a form whose schema openapi-core decodes by its parts")
            properties = self.deref(schema.get("properties", {}))
            if not isinstance(properties, dict):
                raise Unsupported("form properties that are not an object")
            make = self._field if mimetype == FORM_TYPE else self._part
            fields = tuple(make(name, self.deref(node)) for name, node in properties.items())
        return _Media(schema, self._schema_validator(schema), fields, None)

    def _field(self, name: str, schema: Any) -> _Field:
        """A urlencoded form field: read and cast like a form-style query parameter."""
        schema_type = self._type(schema)
        return _Field(name, schema_type or "", self._cast(schema), "default" in schema, schema.get("default"), None)

    def _part(self, name: str, schema: Any) -> _Field:
        """A multipart part: decoded by the content type openapi-core gives its schema, never cast."""
        schema_type = self._type(schema)
        return _Field(name, schema_type or "", same, "default" in schema, schema.get("default"),
                      self._part_media_type(schema))

    def _part_media_type(self, schema: Any) -> str:
        """openapi-core's ``get_default_content_type(schema, encoding=False)``."""
        schema_type = self._type(schema)
        if schema_type is None:
            return "application/octet-stream"
        schema_format = schema.get("format")
        if schema_format is not None and not isinstance(schema_format, str):
            raise Unsupported("a format that is not a string")
        if schema_type == "string" and schema_format in ("binary", "base64"):
            return "application/octet-stream"
        if schema_type == "object":
            return "application/json"
        if schema_type == "array":
            items = self.deref(schema["items"]) if "items" in schema else None
            return "application/octet-stream" if items is None else self._part_media_type(items)
        return "text/plain"

    @staticmethod
    def _type(schema: Any) -> str | None:
        if not isinstance(schema, dict):
            raise Unsupported("a schema that is not an object")
        schema_type = schema.get("type")
        if schema_type is not None and not isinstance(schema_type, str):
            raise Unsupported("a type that is not a string")
        return schema_type

    def _cast(self, schema: Any) -> Callable[[Any], Any]:
        """openapi-core's ``SchemaCaster.cast`` for ``schema`` (raising :class:`CastFailure`)."""
        schema_type = self._type(schema)
        if schema_type is None:
            if any(k in schema for k in ("allOf", "oneOf", "anyOf")):
                return self._composed_cast(schema)
            return same
        if schema_type == "string":
            return same
        if schema_type == "integer":
            return primitive(int, "integer")
        if schema_type == "number":
            return primitive(float, "number")
        if schema_type == "boolean":
            return boolean
        if schema_type == "array":
            return array(self._cast(self.deref(schema.get("items", {}))))
        raise Unsupported(f"a schema of type {schema_type!r}")

    def _composed_cast(self, schema: dict[str, Any]) -> Callable[[Any], Any]:
        """openapi-core's ``AnyCaster`` for an untyped schema composed of parts (see :func:`composed`)."""
        def parts(keyword: str) -> list[Callable[[Any], Any]]:
            nodes = self.deref(schema.get(keyword, []))
            if not isinstance(nodes, list):
                raise Unsupported(f"{keyword} that is not a list")
            return [self._cast(self.deref(node)) for node in nodes]

        return composed(parts("allOf"), parts("oneOf") + parts("anyOf"))

    def _schema_validator(self, schema: Any) -> Any:
        """The jsonschema validator openapi-core's ``oas30_write_schema_validators_factory`` creates."""
        self._check_schema(schema)
        cls = self._validator_class
        return cls(schema, _resolver=self._resolver, format_checker=cls.FORMAT_CHECKER)

    def _check_schema(self, node: Any) -> None:
        """Refuse a schema (or anything it references) that moves the base URI (``$id``): the one resolver here would differ."""
        stack = [node]
        while stack:
            node = stack.pop()
            if isinstance(node, (dict, list)):
                if id(node) in self._checked:
                    continue
                self._checked.add(id(node))
            if isinstance(node, dict):
                if "$id" in node:
                    raise Unsupported("a schema with an $id")
                ref = node.get("$ref")
                if isinstance(ref, str) and ref.startswith("#/"):
                    stack.append(self.deref.target(ref))
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)


# ---------------------------------------------------------------------- per request

@dataclass(frozen=True)
class _Parameter:
    name: str
    location: str
    where: str
    load: Callable[[bool, str, str, Any], Any]
    explode: bool
    schema_type: str
    cast: Callable[[Any], Any]
    validator: Any
    required: bool
    has_default: bool
    default: Any
    empty_check: bool


@dataclass(frozen=True)
class _Field:
    name: str
    schema_type: str
    cast: Callable[[Any], Any]
    has_default: bool
    default: Any
    media_type: str | None  # a multipart part's: how its bytes are read


@dataclass(frozen=True)
class _Media:
    schema: Any  # None: no schema, nothing validated
    validator: Any
    fields: tuple[_Field, ...]  # form fields, in the schema's order
    unsupported: str | None  # why a request with this media type is left to openapi-core


@dataclass(frozen=True)
class _Body:
    required: bool
    content: dict[str, _Media]  # as openapi-core sees it, JSON alias included


@dataclass(frozen=True)
class _Operation:
    parameters: list[_Parameter]
    body: _Body | None
    variables: dict[str, str]  # the path values openapi-core reads from the URL when none are given

    def validate(self, wire: Wire, with_body: bool) -> list[Violation]:
        violations = self._parameter_violations(wire)
        if with_body and self.body is not None:
            violations += self._body_violations(wire, self.body)
        return violations

    def _parameter_violations(self, wire: Wire) -> list[Violation]:
        locations = {"query": MultiDict(wire.query), "header": Headers(wire.headers),
                     "path": wire.path or self.variables, "cookie": NO_COOKIES}
        out: list[Violation] = []
        for param in self.parameters:
            try:
                try:
                    value = deserialise(param.load, param.explode, param.name, param.schema_type, param.cast,
                                         locations[param.location])
                except KeyError:
                    if not param.has_default:
                        raise
                    value = param.default
                else:
                    if param.empty_check and value == "":
                        raise EmptyQueryValue
                errors = tuple(param.validator.iter_errors(value))
            except KeyError:
                if param.required:
                    out.append(Violation("missing_required", param.where, "required but absent"))
                continue
            except CastFailure as failure:
                out.append(Violation("type", param.where, cast_message(failure.value, failure.schema_type)))
                continue
            except EmptyQueryValue:
                out.append(Violation("other", param.where,
                                     f"Value of {param.name} query parameter cannot be empty"))
                continue
            out += schema_violations(param.where, errors)
        return out

    def _body_violations(self, wire: Wire, body: _Body) -> list[Violation]:
        if not wire.body:
            return [Violation("missing_required", "request body", "required but absent")] if body.required else []
        mimetype, parameters, media = find_media_type(wire.media, body.content)
        if media is None:
            return [Violation("other", "request body", f"Content for the following mimetype not found: "
                                                       f"{wire.media}. Valid mimetypes: {list(body.content)}")]
        if media.unsupported is not None:
            raise Unsupported(media.unsupported)
        if mimetype in OPENAPI_CORE_JSON:
            value = json.loads(wire.body)
        elif mimetype == FORM_TYPE:
            location = MultiDict(parse_qsl(wire.body.decode("utf-8"), keep_blank_values=True))
            if media.schema is None:
                return []
            value = {}
            for field in media.fields:
                try:
                    value[field.name] = deserialise(form_load, True, field.name, field.schema_type, field.cast,
                                                     location)
                except KeyError:
                    if field.has_default:
                        value[field.name] = field.default
                except CastFailure as failure:
                    return [Violation("type", cast_where("request body", failure.value, wire.data),
                                      cast_message(failure.value, failure.schema_type))]
        elif mimetype == MULTIPART_TYPE:
            location = MultiDict(multipart_parts(wire.body, parameters))
            if media.schema is None:
                return []
            value = {}
            for field in media.fields:
                if field.schema_type == "array":  # every part of that name, none at all included
                    value[field.name] = [read_part(field.media_type, part) for part in location.getlist(field.name)]
                elif field.name in location:
                    value[field.name] = read_part(field.media_type, location[field.name])
                elif field.has_default:
                    value[field.name] = field.default
        else:
            raise Unsupported(f"a body of media type {mimetype}")
        if media.schema is None:
            return []
        return schema_violations("request body", media.validator.iter_errors(value))
