"""The declared responses of a spec's operations, and validation of values against its schemas.

:meth:`SpecSchemas.responses` lists an operation's declared responses (status, JSON media type,
schema, the media type's examples); :meth:`SpecSchemas.valid` validates a value against a schema of
the document as openapi-core validates a response (``OAS30ReadValidator``, ``OAS31Validator`` for a
3.1 document: ``$ref``s resolved in the document, formats checked). Validators are built once per
schema object.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from wapii_core.base.media import is_json, media_type
from wapii_core.openapi.refs import Resolver

JSON_MEDIA = "application/json"


@dataclass(frozen=True)
class DeclaredResponse:
    """One declared response of an operation."""

    status: str  # "200", "201", "2XX", "default"
    media: str | None  # the JSON media type it declares (None: no JSON body)
    schema: Any  # the schema object of that media type (None: none declared)
    examples: tuple[Any, ...] = field(default=())  # the media type's example values, in spec order

    @property
    def code(self) -> int | None:
        """The status as a number (``2XX``: 200; ``default``: None)."""
        if self.status.isdigit():
            return int(self.status)
        if len(self.status) == 3 and self.status[0].isdigit() and self.status[1:].upper() == "XX":
            return int(self.status[0]) * 100
        return None


class SpecSchemas:
    """Responses and schema validation for one parsed spec document (read-only)."""

    def __init__(self, document: dict[str, Any], resolve: Resolver) -> None:
        self.document = document
        self.resolve = resolve
        self.openapi31 = str(document.get("openapi", "")).startswith("3.1")
        self._validators: dict[int, Any] = {}
        self._root: Any = None
        self._lock = threading.Lock()

    def operation(self, template: str, method: str) -> dict[str, Any]:
        item = self.resolve((self.document.get("paths") or {}).get(template))
        operation = self.resolve(item.get(method)) if isinstance(item, dict) else None
        return operation if isinstance(operation, dict) else {}

    def responses(self, template: str, method: str) -> list[DeclaredResponse]:
        """The operation's declared responses, in spec order."""
        declared = self.resolve(self.operation(template, method).get("responses"))
        out = []
        for status, node in declared.items() if isinstance(declared, dict) else ():
            node = self.resolve(node)
            content = self.resolve(node.get("content")) if isinstance(node, dict) else None
            media, schema, examples = None, None, ()
            if isinstance(content, dict):
                chosen = next((m for m in content if is_json(media_type(m)) or media_type(m) == "*/*"), None)
                if chosen is not None:
                    entry = self.resolve(content[chosen])
                    entry = entry if isinstance(entry, dict) else {}
                    media, schema = (chosen if is_json(media_type(chosen)) else JSON_MEDIA), entry.get("schema")
                    examples = self._examples(entry)
            out.append(DeclaredResponse(str(status), media, schema, examples))
        return out

    def _examples(self, entry: dict[str, Any]) -> tuple[Any, ...]:
        """The media type's examples small enough to answer with (:func:`~wapii_core.mock.values.small`)."""
        from wapii_core.mock.values import small

        found = []
        if entry.get("example") is not None:
            found.append(entry["example"])
        named = self.resolve(entry.get("examples"))
        for example in named.values() if isinstance(named, dict) else ():
            example = self.resolve(example)
            if isinstance(example, dict) and example.get("value") is not None:
                found.append(example["value"])
        return tuple(e for e in found[:16] if small(e))

    # ------------------------------------------------------------------ validation

    def validator(self, schema: Any) -> Any:
        """The jsonschema validator of one schema object of the document (built once)."""
        key = id(schema)
        found = self._validators.get(key)
        if found is None:
            with self._lock:
                found = self._validators.get(key)
                if found is None:
                    from openapi_schema_validator import OAS30ReadValidator, OAS31Validator

                    cls = OAS31Validator if self.openapi31 else OAS30ReadValidator
                    if self._root is None:
                        from referencing import Registry
                        from referencing.jsonschema import DRAFT202012

                        self._root = Registry().with_resource("", DRAFT202012.create_resource(self.document)) \
                            .resolver("")
                    node = schema if isinstance(schema, (dict, bool)) else {}
                    found = self._validators[key] = cls(node, _resolver=self._root, format_checker=cls.FORMAT_CHECKER)
        return found

    def errors(self, schema: Any, value: Any, limit: int = 3) -> list[str]:
        """Up to ``limit`` messages of what in ``value`` does not validate against ``schema``."""
        try:
            found = []
            for error in self.validator(schema).iter_errors(value):
                where = "/".join(str(p) for p in error.absolute_path)
                found.append(f"{where or '(top)'}: {error.message[:200]}")
                if len(found) >= limit:
                    break
            return found
        except Exception as exc:  # noqa: BLE001 - a schema jsonschema cannot use (a broken $ref): report it
            return [f"(schema) {type(exc).__name__}: {str(exc)[:200]}"]

    def valid(self, schema: Any, value: Any) -> bool:
        """Whether ``value`` validates against ``schema`` (a schema jsonschema cannot use: False)."""
        try:
            return self.validator(schema).is_valid(value)
        except Exception:  # noqa: BLE001 - see errors()
            return False
