"""The mock's store: the objects of one sample (or one ``wapii mock`` server), bounded in size.

Objects live in named collections, each object under its identifier, with the links to the
objects it was created under. An object of an open collection that a request merely named is
*materialised* (generated on first use) and kept apart from what the program made: :meth:`state`
leaves it out until the program changes it. Bounds: :data:`MAX_OBJECTS` objects in all and
:data:`MAX_OBJECT_BYTES` of JSON per object; past them a write is refused (the responder answers
``507``), so a program that floods the store fails that request, never the process.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

MAX_OBJECTS = 2000
"""Objects the store holds at most, all collections together (materialised ones included)."""
MAX_OBJECT_BYTES = 256 * 1024
"""JSON bytes of one stored object at most."""


class StoreFull(Exception):
    """A write the store's bounds refuse (the message says which)."""


@dataclass
class Record:
    object: dict[str, Any]
    links: dict[str, str] = field(default_factory=dict)  # parent collection -> parent identifier
    materialised: bool = False  # generated on first use, not changed by the program since


class Store:
    """Collections of objects by identifier (see the module docstring); not shared between samples."""

    def __init__(self, max_objects: int = MAX_OBJECTS, max_object_bytes: int = MAX_OBJECT_BYTES) -> None:
        self.max_objects = max_objects
        self.max_object_bytes = max_object_bytes
        self._collections: dict[str, dict[str, Record]] = {}
        self._deleted: dict[str, set[str]] = {}
        self._count = 0
        self.counters: dict[str, int] = {}

    def __len__(self) -> int:
        return self._count

    def get(self, collection: str, identifier: str) -> Record | None:
        return self._collections.get(collection, {}).get(identifier)

    def deleted(self, collection: str, identifier: str) -> bool:
        return identifier in self._deleted.get(collection, ())

    def items(self, collection: str) -> list[tuple[str, Record]]:
        """The collection's objects in the order they were first stored."""
        return list(self._collections.get(collection, {}).items())

    def put(self, collection: str, identifier: str, obj: dict[str, Any], links: dict[str, str] | None = None,
            materialised: bool = False) -> Record:
        """Store ``obj`` (a copy) under ``identifier``, replacing what was there; StoreFull past the bounds."""
        size = len(json.dumps(obj, separators=(",", ":"), default=str))
        if size > self.max_object_bytes:
            raise StoreFull(f"an object of {size} bytes (the mock keeps at most {self.max_object_bytes})")
        objects = self._collections.setdefault(collection, {})
        existing = objects.get(identifier)
        if existing is None and self._count >= self.max_objects:
            raise StoreFull(f"the store holds {self._count} objects, its limit")
        record = Record(copy.deepcopy(obj), dict(links or (existing.links if existing else {})), materialised)
        if existing is None:
            self._count += 1
        objects[identifier] = record
        self._deleted.get(collection, set()).discard(identifier)
        return record

    def delete(self, collection: str, identifier: str) -> bool:
        objects = self._collections.get(collection, {})
        if identifier not in objects:
            return False
        del objects[identifier]
        self._count -= 1
        deleted = self._deleted.setdefault(collection, set())
        if len(deleted) < self.max_objects:
            deleted.add(identifier)
        return True

    def next_number(self, collection: str) -> int:
        """1, 2, 3, ... per collection: the order objects were created in."""
        self.counters[collection] = self.counters.get(collection, 0) + 1
        return self.counters[collection]

    def state(self, copied: bool = True) -> dict[str, Any]:
        """A JSON-able snapshot of what the program made: ``{"collections": {name: {id: object}},
        "links": {name: {id: {parent collection: parent id}}}}``; objects only materialised are left out.
        ``copied=False``: the objects themselves, for a reader that changes nothing and keeps nothing
        past the store's next change (a judge reading a finished program's store)."""
        collections: dict[str, dict[str, Any]] = {}
        links: dict[str, dict[str, Any]] = {}
        for name, objects in self._collections.items():
            for identifier, record in objects.items():
                if record.materialised:
                    continue
                collections.setdefault(name, {})[identifier] = copy.deepcopy(record.object) if copied else record.object
                if record.links:
                    links.setdefault(name, {})[identifier] = dict(record.links)
        return {"collections": collections, "links": links}
