"""What request validation's engines read and return: the request on the wire and its violations.

A leaf of :mod:`wapii_core.openapi`: :mod:`~wapii_core.openapi.request_validation` builds a
:class:`Wire` from a request configuration and hands it to an engine
(:mod:`~wapii_core.openapi.compiled_engine` or :mod:`~wapii_core.openapi.openapi_core_engine`), which
answers with :class:`Violation` objects named and worded by the functions here; neither engine
imports the module that calls it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from wapii_core.base.media import form_kind, is_json, media_type

KINDS = ("type", "enum", "missing_required", "other")

LEGACY_JSON_MEDIA = "text/json"
"""A name for JSON from before ``application/json``: a body declared as it is encoded as JSON too
(it is not a JSON media type of :func:`~wapii_core.base.media.is_json`, so a body sent as it is kept as text)."""


@dataclass(frozen=True)
class Violation:
    kind: str  # one of KINDS
    where: str  # "query parameter 'limit'", "request body", "request body property 'title'"
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class Wire:
    """The request a spec-abiding client sends for a configuration: what both engines validate."""

    method: str  # lower case
    query: list[tuple[str, str]]  # in order, a list value repeated or joined as its style says
    headers: list[tuple[str, str]]  # in order; looked up case-insensitively, first match
    path: dict[str, str]
    body: bytes | None
    media: str  # the media type the body is validated as
    data: Any = None  # the configuration's body values (to name the property a form value came from)
    problems: list[Violation] = field(default_factory=list)  # fields of the wrong shape


def scalar(value: Any) -> str:
    """A value as a query, header, path or form field carries it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def media_kind(media: str) -> str:
    """``json``, ``form``, ``multipart`` or ``unsupported``."""
    base = media_type(media)
    if is_json(base) or base == LEGACY_JSON_MEDIA:
        return "json"
    return form_kind(base) or "unsupported"


def parameter_where(name: str, location: str | None) -> str:
    return f"{location} parameter '{name}'" if location else f"parameter '{name}'"


def schema_error_kind(error: Any) -> str:
    return {"type": "type", "enum": "enum", "required": "missing_required", "const": "enum"}.get(
        getattr(error, "validator", None), "other")


def schema_error_where(base: str, error: Any) -> str:
    path = [str(p) for p in getattr(error, "absolute_path", [])]
    if getattr(error, "validator", None) == "required" and isinstance(error.instance, dict):
        missing = [r for r in error.validator_value if r not in error.instance]
        path = path + missing[:1]
    if base == "request body" and path:
        return f"request body property '{'.'.join(path)}'"
    return base + (f" item {'.'.join(path)}" if path else "")


def schema_violations(base: str, errors: Any) -> list[Violation]:
    """jsonschema errors of a value at ``base`` as violations (one per error)."""
    return [Violation(schema_error_kind(e), schema_error_where(base, e), e.message) for e in errors]


def cast_where(where: str, value: Any, data: Any) -> str:
    """Name the body property a form value that failed to cast came from (openapi-core does not)."""
    if where != "request body" or not isinstance(data, dict):
        return where
    names = [k for k, v in data.items() if scalar(v) == str(value) or (isinstance(v, list) and
                                                                         str(value) in map(scalar, v))]
    return f"request body property '{names[0]}'" if len(names) == 1 else where


def cast_message(value: Any, schema_type: str | None) -> str:
    """openapi-core's text for a value that cannot be cast."""
    return f"Failed to cast value to {schema_type} type: {value}"
