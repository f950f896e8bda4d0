"""The rules for the objects in the store: a created object's identifier, what a request's fields
change in it, how it is shaped for an answer's schema, and which objects a list keeps
(docs/mock.md, "What is inferred, and how")."""

from __future__ import annotations

import copy
import random
import zlib
from typing import Any

from wapii_core.mock.plan import ID_FIELDS, Collection, _singular
from wapii_core.mock.store import Record, Store
from wapii_core.mock.values import seeded_rng


class ObjectRules:
    """Part of :class:`~wapii_core.mock.spec_mock.SpecMock`: what it does with objects (uses its
    ``values``, ``schemas`` and ``generate``)."""

    values: Any
    schemas: Any
    generate: Any

    def new_identifier(self, collection: Collection, seed: int, number: int, store: Store) -> str:
        """A fresh identifier for the ``number``-th object created in ``collection``."""
        schema = self.values.merged(collection.id_schema) if collection.id_schema is not None else {}
        kind = self.values.kind(schema) if schema else "string"
        # each collection numbers from a start of its own, so that an identifier of one collection
        # names nothing in another (a program that mixes them up, or guesses "1", is told 404)
        start = zlib.crc32(collection.name.encode()) % 900 + 100
        if kind in ("integer", "number"):
            return str(start * 100 + number)
        plain = not any(k in schema for k in ("pattern", "format", "enum", "maxLength"))
        if plain:
            return str(1_200_000_000_000 + 1_000_000 * (seed % 1_000_000) + 1000 * start + number)
        for attempt in range(20):
            value = self.values.make(schema, seeded_rng(seed, "id", collection.name, number, attempt), collection.id_field)
            if isinstance(value, (str, int)) and str(value) and store.get(collection.name, str(value)) is None \
                    and "/" not in str(value):
                return str(value)
        return f"{collection.name[:1]}{number}"

    def overlay(self, collection: Collection, obj: dict[str, Any], fields: dict[str, Any], identifier: str) -> dict[str, Any]:
        """``obj`` with each field the request set that the object schema declares and that validates
        against its property's schema (an identifier, or a list of them, sent where the object holds
        objects naming them becomes those objects), and the identifier in the identifier field."""
        properties = self.values.object_properties(collection.object_schema) if collection.object_schema else {}
        for name, value in fields.items():
            sub = properties.get(name)
            if sub is not None and self.schemas.valid(sub, value):
                obj[name] = copy.deepcopy(value)
            elif sub is not None and isinstance(value, (str, int)) and self.values.kind(sub) == "object":
                linked = self._reference(sub, str(value))
                if linked is not None:
                    obj[name] = linked
            elif sub is not None and isinstance(value, list) and self.values.kind(sub) == "array" and \
                    all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
                items = self.values.merged(sub).get("items")  # ["123"] sent where the answer holds [{"gid": "123"}]
                linked_items = [self._reference(items, str(v)) for v in value[:100]]
                if self.values.kind(items) == "object" and all(i is not None for i in linked_items) \
                        and self.schemas.valid(sub, linked_items):
                    obj[name] = linked_items
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
        """The identifier in the identifier field, where it (or, for a composite ``owner/repo``, its
        last part) validates there; an object without a schema gets it as it is."""
        field = collection.id_field
        if collection.object_schema is None:
            obj[field] = identifier
            return
        sub = self.values.object_properties(collection.object_schema).get(field)
        if sub is None:
            return
        for text in dict.fromkeys((identifier, identifier.rsplit("/", 1)[-1])):
            value: Any = text
            if self.values.kind(sub) in ("integer", "number"):
                try:
                    value = int(text)
                except ValueError:
                    continue
            if self.schemas.valid(sub, value):
                obj[field] = value
                return

    def shaped(self, collection: Collection, schema: Any, obj: dict[str, Any], identifier: str, seed: int) -> Any:
        """``obj`` as an answer whose schema is ``schema`` carries it: itself where it validates (or
        where ``schema`` is its collection's object schema, which the object was made and changed by,
        a property at a time), else a value generated for ``schema`` with every property of ``obj``
        that validates there."""
        resolve = self.schemas.resolve
        if schema is None or (collection.object_schema is not None and resolve(schema) is resolve(
                collection.object_schema)) or self.schemas.valid(schema, obj):
            return copy.deepcopy(obj)
        made = self.generate(schema, seeded_rng(seed, "shape", collection.name, identifier))
        if not isinstance(made, dict):
            return made
        properties = self.values.object_properties(schema)
        for name, value in obj.items():
            if name in properties and self.schemas.valid(properties[name], value):
                made[name] = copy.deepcopy(value)
        return made

    def belongs(self, record: Record, parent: str, parent_id: str) -> bool:
        """Whether an object belongs to the parent a list is scoped to: linked to it, or one of its
        properties names it (``"project": "1"``, ``{"gid": "1"}``, ``["1"]``)."""
        if record.links.get(parent) == parent_id:
            return True
        if parent in record.links:
            return False
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


def _names(value: Any, identifier: str) -> bool:
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return str(value) == identifier
    if isinstance(value, dict):
        return any(str(value.get(k)) == identifier for k in ID_FIELDS if k in value)
    if isinstance(value, list):
        return any(_names(v, identifier) for v in value[:100])
    return False
