"""The bodies of the mock's answers: a response's example or generated value, the object or page of
objects put at its wrapper, paging properties, and fault bodies (docs/mock.md, "Answers", "Faults")."""

from __future__ import annotations

import copy
import random
from typing import Any

from wapii_core.mock.incoming import Incoming
from wapii_core.mock.plan import Collection, Pagination, Step
from wapii_core.mock.schemas import DeclaredResponse

MESSAGE_FIELDS = ("message", "error", "detail", "error_description", "description", "title", "msg")
"""The string properties an error body's message goes in (the first one its schema has)."""
NO_BODY = object()
"""The answer to a request whose response has no body (a delete, an empty response)."""

GENERATED = 4096
"""Generated values a mock remembers (then it starts afresh)."""
VARIANTS = 4
"""``oneOf`` / ``anyOf`` alternatives tried for an answer that must validate."""
_PAGE_TOKENS = ("nextPageToken", "next_page_token", "next_cursor", "nextCursor", "next_token", "cursor")
_TOTALS = ("total", "total_count", "totalCount", "count", "totalItems", "total_items")
_MISSING = object()


class AnswerMaker:
    """Part of :class:`~wapii_core.mock.spec_mock.SpecMock`: the bodies of its answers (uses its
    ``values``, ``schemas``, ``server`` and the per-operation example cache ``_skeletons``)."""

    values: Any
    schemas: Any
    server: str
    _skeletons: dict[tuple[str, str, str], Any]
    _generated: dict[tuple[int, str, float], Any]

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
        ``anyOf`` alternatives) that validates, else the last; remembered per schema and seed
        (:data:`GENERATED` values), since every sample of a task makes the same ones."""
        seed = rng.random()
        key = (id(schema), name, seed)
        made = self._generated.get(key, _MISSING)
        if made is _MISSING:  # the same seed and key in another sample: the same value, made once
            for variant in range(VARIANTS):
                made = self.values.make(schema, random.Random(seed), name, variant=variant)
                if variant == VARIANTS - 1 or self.schemas.valid(schema, made):
                    break
            if len(self._generated) >= GENERATED:
                self._generated.clear()
            self._generated[key] = made
        return copy.deepcopy(made)

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
