"""Schema validation of one request configuration against one operation of a spec, with openapi-core.

A configuration (expected or captured: ``url``, ``method``, ``headers``, ``params``, ``data``,
``path_params``) is turned into the HTTP request a spec-abiding client would send — query, header
and path values serialised as strings in the parameter's style, the body encoded in a media type
the operation declares — and handed to openapi-core's parameter and body validators. Their errors
become :class:`Violation` objects of four kinds: ``type`` (a value of the wrong type, or one that
cannot be cast to it), ``enum`` (a value outside the enum), ``missing_required`` (a required
parameter, body or body property is absent) and ``other`` (format, range, pattern, ...).
Whether a *name* is declared at all is the comparison's job (metrics.md §5), not this module's.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlencode

KINDS = ("type", "enum", "missing_required", "other")

JSON_MEDIA = ("application/json", "text/json")
FORM_MEDIA = "application/x-www-form-urlencoded"
MULTIPART_MEDIA = "multipart/form-data"


@dataclass(frozen=True)
class Violation:
    kind: str  # one of KINDS
    where: str  # "query parameter 'limit'", "request body", "request body property 'title'"
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class _Request:
    """The openapi-core request protocol (host_url, path, path_pattern, method, parameters, body, content_type)."""

    host_url: str
    path: str
    path_pattern: str
    method: str
    parameters: Any
    body: bytes | None
    content_type: str

    @property
    def full_url_pattern(self) -> str:
        return self.host_url + self.path_pattern


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def _media_kind(media: str) -> str:
    base = media.split(";", 1)[0].strip().lower()
    if base in JSON_MEDIA or base.endswith("+json"):
        return "json"
    if base == FORM_MEDIA:
        return "form"
    if base == MULTIPART_MEDIA:
        return "multipart"
    return "unsupported"


def _multipart(data: dict[str, Any]) -> tuple[bytes, str]:
    boundary = "wapii-boundary-7d1f0c"
    parts = []
    for name, value in data.items():
        for item in value if isinstance(value, list) else [value]:
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{_scalar(item)}\r\n')
    return ("".join(parts) + f"--{boundary}--\r\n").encode(), f"{MULTIPART_MEDIA}; boundary={boundary}"


class OperationValidator:
    """openapi-core validators for one spec document (build with :meth:`for_spec`, cached per file)."""

    def __init__(self, document: dict[str, Any]) -> None:
        from jsonschema_path import SchemaPath
        from openapi_core.validation.request.validators import (
            V30RequestBodyValidator,
            V30RequestParametersValidator,
        )

        self.document = document
        self.spec = SchemaPath.from_dict(_with_json_aliases(document))
        self.server = document["servers"][0]["url"].rstrip("/") + "/"
        # spec_validator_cls=None: real-world specs are often not strictly valid; validate requests only
        self._parameters = V30RequestParametersValidator(self.spec, spec_validator_cls=None)
        self._body = V30RequestBodyValidator(self.spec, spec_validator_cls=None)

    @classmethod
    def for_spec(cls, path: Path) -> "OperationValidator":
        return _validator_for(str(Path(path).resolve()))

    def operation(self, template: str, method: str) -> dict[str, Any] | None:
        item = self.document.get("paths", {}).get(template)
        operation = item.get(method.lower()) if isinstance(item, dict) else None
        return operation if isinstance(operation, dict) else None

    def declared_media_types(self, template: str, method: str) -> list[str]:
        """The request-body media types of an operation, in spec order (``[]``: no body declared)."""
        operation = self.operation(template, method) or {}
        body = _resolve(self.document, operation.get("requestBody") or {})
        return list((body.get("content") or {}).keys())

    def _parameter(self, template: str, method: str, name: str, location: str) -> dict[str, Any]:
        item = self.document.get("paths", {}).get(template) or {}
        operation = self.operation(template, method) or {}
        for raw in [*(operation.get("parameters") or []), *(item.get("parameters") or [])]:
            param = _resolve(self.document, raw)
            if isinstance(param, dict) and param.get("name") == name and param.get("in") == location:
                return param
        return {}

    def _query_items(self, template: str, method: str, params: dict[str, Any]) -> list[tuple[str, str]]:
        """Query values as the wire carries them: lists repeated (``explode``) or comma-joined."""
        items: list[tuple[str, str]] = []
        for name, value in params.items():
            if value is None:
                continue
            if isinstance(value, list):
                param = self._parameter(template, method, name, "query")
                style = param.get("style", "form")
                explode = param.get("explode", style == "form")
                if explode:
                    items += [(name, _scalar(v)) for v in value]
                else:
                    separator = {"spaceDelimited": " ", "pipeDelimited": "|"}.get(style, ",")
                    items.append((name, separator.join(_scalar(v) for v in value)))
            else:
                items.append((name, _scalar(value)))
        return items

    def request(self, config: dict[str, Any], template: str, content_type: str | None = None) -> _Request:
        """The HTTP request a spec-abiding client sends for ``config`` at ``template``."""
        from werkzeug.datastructures import Headers, ImmutableMultiDict
        from openapi_core.datatypes import RequestParameters

        method = str(config.get("method", "get")).lower()
        headers = Headers([(k, _scalar(v)) for k, v in (config.get("headers") or {}).items() if v is not None])
        query = ImmutableMultiDict(self._query_items(template, method, config.get("params") or {}))
        path = {k: _scalar(v) for k, v in (config.get("path_params") or {}).items()}
        body, media = self._encode_body(config.get("data"), template, method, content_type)
        return _Request(self.server, template.lstrip("/"), template.lstrip("/"), method,
                        RequestParameters(query=query, header=headers, path=path), body, media)

    def _encode_body(self, data: Any, template: str, method: str,
                     content_type: str | None) -> tuple[bytes | None, str]:
        """The body bytes and media type to validate.

        A form or multipart request is validated as that form (openapi-core casts its strings) when
        the operation declares that media type; anything else is validated as JSON against the
        declared schema (see :func:`_with_json_aliases`), so a JSON body sent to an operation that
        only declares a form is judged by the values it carries.
        """
        declared = [m.split(";", 1)[0].strip().lower() for m in self.declared_media_types(template, method)]
        if data in (None, {}, []) or not declared:
            return None, "application/json"
        wanted = (content_type or "application/json").split(";", 1)[0].strip().lower()
        kind = _media_kind(wanted)
        if kind == "form" and wanted in declared and isinstance(data, dict):
            pairs = [(k, _scalar(i)) for k, v in data.items() for i in (v if isinstance(v, list) else [v])]
            return urlencode(pairs).encode(), wanted
        if kind == "multipart" and wanted in declared and isinstance(data, dict):
            return _multipart(data)
        media = next((m for m in declared if _media_kind(m) == "json"), "application/json")
        return json.dumps(data).encode(), media

    def validate(self, config: dict[str, Any], template: str) -> list[Violation]:
        """Every schema violation of ``config`` against the operation at ``template`` and its method."""
        headers = {k.lower(): v for k, v in (config.get("headers") or {}).items()}
        request = self.request(config, template, headers.get("content-type"))
        violations: list[Violation] = []
        validators = [self._parameters] + ([self._body] if self.declared_media_types(template, request.method) else [])
        for validator in validators:
            try:
                with warnings.catch_warnings():  # openapi-core warns on every deprecated allowEmptyValue
                    warnings.simplefilter("ignore", DeprecationWarning)
                    for error in validator.iter_errors(request):
                        violations += _classify(error, config.get("data"))
            except Exception as exc:  # noqa: BLE001 - a value openapi-core cannot handle is reported, not fatal
                violations.append(Violation("other", "request", f"openapi-core could not validate it: {exc}"))
        return _deduplicated(violations)

    def content_type_declared(self, config: dict[str, Any], template: str) -> bool | None:
        """Whether the request's Content-Type is a declared body media type (None: no body to judge)."""
        declared = [m.split(";", 1)[0].strip().lower() for m in
                    self.declared_media_types(template, str(config.get("method", "get")))]
        if not declared or config.get("data") in (None, {}, []):
            return None
        headers = {k.lower(): v for k, v in (config.get("headers") or {}).items()}
        given = str(headers.get("content-type", "application/json")).split(";", 1)[0].strip().lower()
        return given in declared


def _resolve(document: dict[str, Any], node: Any) -> Any:
    """Follow local ``$ref`` chains (at most 20 hops; a broken one resolves to ``{}``)."""
    for _ in range(20):
        if not (isinstance(node, dict) and isinstance(node.get("$ref"), str)):
            break
        target: Any = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(target, dict) else {}
        node = target
    return node


def _with_json_aliases(document: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``document`` where every request body without a JSON media type also accepts
    ``application/json`` with the schema of its first media type (what judging reads, metrics.md §5)."""
    import copy

    patched = copy.deepcopy(document)
    def resolve(node: Any) -> Any:
        return _resolve(patched, node)

    for item in (patched.get("paths") or {}).values():
        item = resolve(item)
        for operation in (item.values() if isinstance(item, dict) else ()):
            body = resolve(operation.get("requestBody")) if isinstance(operation, dict) else None
            content = body.get("content") if isinstance(body, dict) else None
            if isinstance(content, dict) and content and not any(_media_kind(m) == "json" for m in content):
                content["application/json"] = next(iter(content.values()))
    return patched


def _deduplicated(violations: list[Violation]) -> list[Violation]:
    """Each violation once; an enum violation dropped where the same value already has a type one."""
    typed = {v.where for v in violations if v.kind == "type"}
    return list(dict.fromkeys(v for v in violations if not (v.kind == "enum" and v.where in typed)))


@lru_cache(maxsize=16)
def _validator_for(path: str) -> OperationValidator:
    from .datasets import read_spec

    return OperationValidator(read_spec(Path(path)))


def _where(error: Exception) -> str:
    name = getattr(error, "name", None)
    location = getattr(error, "location", None)
    if name is not None:
        return f"{location} parameter '{name}'" if location else f"parameter '{name}'"
    return "request body"


def _schema_error_kind(error: Any) -> str:
    return {"type": "type", "enum": "enum", "required": "missing_required", "const": "enum"}.get(
        getattr(error, "validator", None), "other")


def _schema_error_where(base: str, error: Any) -> str:
    path = [str(p) for p in getattr(error, "absolute_path", [])]
    if getattr(error, "validator", None) == "required" and isinstance(error.instance, dict):
        missing = [r for r in error.validator_value if r not in error.instance]
        path = path + missing[:1]
    if base == "request body" and path:
        return f"request body property '{'.'.join(path)}'"
    return base + (f" item {'.'.join(path)}" if path else "")


def _cast_where(where: str, value: Any, data: Any) -> str:
    """Name the body property a form value that failed to cast came from (openapi-core does not)."""
    if where != "request body" or not isinstance(data, dict):
        return where
    names = [k for k, v in data.items() if _scalar(v) == str(value) or (isinstance(v, list) and
                                                                          str(value) in map(_scalar, v))]
    return f"request body property '{names[0]}'" if len(names) == 1 else where


def _classify(error: Exception, data: Any = None) -> Iterator[Violation]:
    """openapi-core's parameter / body errors as violations (one per schema error); ``data``: the
    request's body values, to name the property of a form value that could not be cast."""
    from openapi_core.casting.schemas.exceptions import CastError
    from openapi_core.validation.schemas.exceptions import InvalidSchemaValue

    kind_name = type(error).__name__
    where = _where(error)
    if kind_name == "MissingRequestBody":  # an optional body left out
        return
    if kind_name.startswith("MissingRequired"):
        yield Violation("missing_required", where, "required but absent")
        return
    cause = error.__cause__
    if isinstance(cause, InvalidSchemaValue):
        for schema_error in cause.schema_errors:
            yield Violation(_schema_error_kind(schema_error), _schema_error_where(where, schema_error),
                            schema_error.message)
    elif isinstance(cause, CastError):
        yield Violation("type", _cast_where(where, cause.value, data), str(cause))
    else:
        yield Violation("other", where, str(cause or error))
