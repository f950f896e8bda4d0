"""Schema validation of one request configuration against one operation of a spec: openapi-core's answers.

A configuration (expected or captured: ``url``, ``method``, ``headers``, ``params``, ``data``,
``path_params``) is turned into the HTTP request a spec-abiding client would send (:class:`Wire`):
query, header and path values serialised as strings in the parameter's style, the body encoded in
a media type the operation declares. That request is validated as openapi-core's
``V30RequestParametersValidator`` and ``V30RequestBodyValidator`` (``V31...`` for an OpenAPI 3.1
document) validate it (the body only when
the operation declares one), and their errors become :class:`Violation` objects of four kinds:
``type`` (a value of the wrong type, or one that cannot be cast to it), ``enum`` (a value outside
the enum), ``missing_required`` (a required parameter, body or body property is absent) and
``other`` (format, range, pattern, ...). Whether a *name* is declared at all is the comparison's
job (metrics.md §5), not this module's.

Two engines give these answers. :mod:`~wapii_core.openapi.compiled_engine` builds what an operation
needs once (its parameters, casts, media types and jsonschema validators) and then validates a
request in microseconds; :mod:`~wapii_core.openapi.openapi_core_engine` runs openapi-core itself (about
0.5 ms a request, with what it builds kept per operation) and serves every operation the compiled
engine does not cover (content-typed
parameters, styles other than form and simple, object-typed parameters and form fields,
composed schemas with object parts where openapi-core casts, media types other than JSON and
forms, remote ``$ref``s, ..., and every operation of an OpenAPI 3.1 document).
``tests/test_openapi_engines.py`` holds the two to equal results, request by request. The compiled
engine is kept because it is measurably faster end to end: ``benchmarks/bench_validation_engines.py``
(``wapii run --backend replay`` over corpus_a, both engines side by side) measured openapi-core
1.33-1.34x slower in wall time and 1.5-1.6x in CPU time (docs/benchmarks.md); issue 37's bar for
keeping it is 1.3x.

:meth:`OperationValidator.validate` never raises: a field of the wrong shape (``headers`` that
are not an object, a header value holding a line break) is a violation of that request, and a
value neither engine can handle is one ``other`` violation of the request.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from wapii_core.base.media import MULTIPART_TYPE, header_value, media_type
from wapii_core.base.text import exception_line
from wapii_core.openapi.refs import Resolver
from wapii_core.openapi.violations import KINDS, Violation, Wire, media_kind, scalar

__all__ = ["KINDS", "NotCompiled", "OperationValidator", "Violation", "Wire"]

MULTIPART_BOUNDARY = "wapii-boundary-7d1f0c"
MAX_MESSAGE = 300
"""Characters kept of an exception's text in an ``other`` violation."""
CACHED_SPECS = 16
"""Specs whose validators (and compiled operations) a process keeps."""


def _type_name(value: Any) -> str:
    names = {list: "a list", str: "a string", bool: "a boolean", int: "a number", float: "a number",
             type(None): "null"}
    return names.get(type(value), f"a {type(value).__name__}")


def _object_field(config: dict[str, Any], name: str, problems: list[Violation]) -> dict[str, Any]:
    """``config[name]`` when it is an object; empty when it is absent or any other empty value (``0``,
    ``""``, ``[]``, as ever); any other value is a violation of the request and counts as empty."""
    value = config.get(name)
    if not value or isinstance(value, dict):
        return value or {}
    problems.append(Violation("type", f"request {name}", f"expected an object, got {_type_name(value)}"))
    return {}


class OperationValidator:
    """Validates configurations against the operations of one spec document (:meth:`for_spec` caches one per file)."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.resolve = Resolver(document, "spec", lenient=True, through=False)  # a broken $ref: nothing declared there
        self.server = document["servers"][0]["url"].rstrip("/") + "/"
        self.openapi31 = str(document.get("openapi", "")).startswith("3.1")
        self._declared: dict[tuple[str, str], list[str]] = {}
        self._engines: dict[str, Any] = {}
        self._lock = threading.Lock()

    @classmethod
    def for_spec(cls, path: Path) -> "OperationValidator":
        """The validator of the spec file at ``path`` (one per file content and process)."""
        from wapii_core.openapi.spec_file import read_spec
        from wapii_core.openapi.parsing import read_document

        sha256 = read_document(path).sha256
        with _cache_lock:
            validator = _cache.get(sha256)
        if validator is None:
            validator = cls(read_spec(Path(path)))
            with _cache_lock:
                validator = _cache.setdefault(sha256, validator)
                while len(_cache) > CACHED_SPECS:
                    del _cache[next(iter(_cache))]
        return validator

    # ------------------------------------------------------------------ the operation

    def operation(self, template: str, method: str) -> dict[str, Any] | None:
        """The operation object of ``method`` at ``template`` (``$ref``s followed), None where there is none."""
        item = self._path_item(template)
        operation = self.resolve(item.get(method.lower()))
        return operation if isinstance(operation, dict) else None

    def _path_item(self, template: str) -> dict[str, Any]:
        item = self.resolve(self.document.get("paths", {}).get(template))
        return item if isinstance(item, dict) else {}

    def declared_media_types(self, template: str, method: str) -> list[str]:
        """The request-body media types of an operation, in spec order (``[]``: no body declared)."""
        key = (template, method)
        declared = self._declared.get(key)
        if declared is None:
            operation = self.operation(template, method) or {}
            body = self.resolve(operation.get("requestBody") or {})
            content = body.get("content") if isinstance(body, dict) else None
            declared = self._declared[key] = list(content.keys()) if isinstance(content, dict) else []
        return declared

    def _parameter(self, template: str, method: str, name: str, location: str) -> dict[str, Any]:
        item = self._path_item(template)
        operation = self.operation(template, method) or {}
        for raw in [*(operation.get("parameters") or []), *(item.get("parameters") or [])]:
            param = self.resolve(raw)
            if isinstance(param, dict) and param.get("name") == name and param.get("in") == location:
                return param
        return {}

    # ------------------------------------------------------------------ the request

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
                    items += [(name, scalar(v)) for v in value]
                else:
                    separator = {"spaceDelimited": " ", "pipeDelimited": "|"}.get(style, ",")
                    items.append((name, separator.join(scalar(v) for v in value)))
            else:
                items.append((name, scalar(value)))
        return items

    def wire(self, config: dict[str, Any], template: str) -> Wire:
        """The HTTP request a spec-abiding client sends for ``config`` at ``template``."""
        problems: list[Violation] = []
        headers_in = _object_field(config, "headers", problems)
        params = _object_field(config, "params", problems)
        path_params = _object_field(config, "path_params", problems)
        method = str(config.get("method", "get")).lower()
        headers = []
        for name, value in headers_in.items():
            if value is None:
                continue
            text = scalar(value)
            if "\r" in text or "\n" in text:
                problems.append(Violation("other", f"header '{name}'", "a header value cannot hold a line break"))
                continue
            headers.append((name, text))
        content_type = header_value(headers_in, "content-type", last=True)
        if content_type is not None and not isinstance(content_type, str):
            content_type = scalar(content_type)
        data = config.get("data")
        body, media = self._encode_body(data, template, method, content_type)
        return Wire(method, self._query_items(template, method, params), headers,
                    {k: scalar(v) for k, v in path_params.items()}, body, media, data, problems)

    def _encode_body(self, data: Any, template: str, method: str,
                     content_type: str | None) -> tuple[bytes | None, str]:
        """The body bytes and media type to validate.

        A form or multipart request is validated as that form (openapi-core casts its strings) when
        the operation declares that media type; anything else is validated as JSON against the
        declared schema (a JSON alias of its first media type, see ``openapi_core_engine``), so a JSON
        body sent to an operation that only declares a form is judged by the values it carries.
        """
        declared = [media_type(m) for m in self.declared_media_types(template, method)]
        if data in (None, {}, []) or not declared:
            return None, "application/json"
        wanted = media_type(content_type or "application/json")
        kind = media_kind(wanted)
        if kind == "form" and wanted in declared and isinstance(data, dict):
            pairs = [(k, scalar(i)) for k, v in data.items() for i in (v if isinstance(v, list) else [v])]
            return urlencode(pairs).encode(), wanted
        if kind == "multipart" and wanted in declared and isinstance(data, dict):
            parts = [f'--{MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{scalar(item)}\r\n'
                     for name, value in data.items() for item in (value if isinstance(value, list) else [value])]
            return ("".join(parts) + f"--{MULTIPART_BOUNDARY}--\r\n").encode(), \
                f"{MULTIPART_TYPE}; boundary={MULTIPART_BOUNDARY}"
        media = next((m for m in declared if media_kind(m) == "json"), "application/json")
        return json.dumps(data).encode(), media

    # ------------------------------------------------------------------ validating

    def validate(self, config: dict[str, Any], template: str, engine: str = "auto") -> list[Violation]:
        """Every schema violation of ``config`` against the operation at ``template`` and its method.

        ``engine``: ``auto`` (the compiled engine where it covers the operation, else openapi-core),
        ``reference`` (openapi-core always) or ``compiled`` (raises :class:`NotCompiled` where it
        does not cover the operation; for tests). Never raises otherwise (see the module docstring).
        """
        try:
            wire = self.wire(config if isinstance(config, dict) else {}, template)
            with_body = bool(self.declared_media_types(template, wire.method))
            found = None
            if engine != "reference":  # an OpenAPI 3.1 document: openapi-core's V31 validators only
                found = None if self.openapi31 else self._engine("compiled").validate(wire, template, with_body)
                if found is None and engine == "compiled":
                    raise NotCompiled(template, wire.method)
            if found is None:
                found = self._engine("reference").validate(wire, template, with_body)
            return _deduplicated(wire.problems + found)
        except NotCompiled:
            raise
        except Exception as exc:  # noqa: BLE001 - a request is judged, never the run aborted (see the docstring)
            return [Violation("other", "request", f"could not be validated: {exception_line(exc, MAX_MESSAGE)}")]

    def _engine(self, name: str) -> Any:
        engine = self._engines.get(name)
        if engine is None:
            with self._lock:
                engine = self._engines.get(name)
                if engine is None:
                    if name == "compiled":
                        from wapii_core.openapi.compiled_engine import CompiledSpec as Engine
                    else:
                        from wapii_core.openapi.openapi_core_engine import ReferenceSpec as Engine
                    engine = self._engines[name] = Engine(self.document, self.server, self.openapi31)
        return engine

    def content_type_declared(self, config: dict[str, Any], template: str) -> bool | None:
        """Whether the request's Content-Type is a declared body media type (None: no body to judge)."""
        config = config if isinstance(config, dict) else {}
        declared = [media_type(m) for m in self.declared_media_types(template, str(config.get("method", "get")).lower())]
        if not declared or config.get("data") in (None, {}, []):
            return None
        given = header_value(_object_field(config, "headers", []), "content-type", last=True, default="application/json")
        given = media_type(str(given))
        return given in declared


class NotCompiled(Exception):
    """The compiled engine does not cover this operation (only raised when it was asked for explicitly)."""


def _deduplicated(violations: list[Violation]) -> list[Violation]:
    """Each violation once; an enum violation dropped where the same value already has a type one."""
    typed = {v.where for v in violations if v.kind == "type"}
    return list(dict.fromkeys(v for v in violations if not (v.kind == "enum" and v.where in typed)))


_cache: dict[str, OperationValidator] = {}
_cache_lock = threading.Lock()
