"""The project's one ``$ref`` resolver: every reader of a spec document follows references through it.

A ``$ref`` is followed as openapi-core's resolver (jsonschema_path on ``referencing``) follows it:

- only references inside the document are followed: ``#`` (the root) and JSON pointers ``#/...``,
  percent-decoded, then ``~1`` / ``~0`` unescaped; a reference to another file or URL is refused
  (:class:`RefError`: the description must be bundled into one file first);
- a target that is itself a reference is followed in turn (a chain);
- a reference met on the way to a pointer's target (``#/components/schemas/A/properties/b`` where
  ``A`` is itself a ``$ref``) is followed by default, as the spec index always has (openapi3-parser
  resolves the whole document first); openapi-core does not (``referencing`` walks the pointer
  through the plain document, and such a pointer points nowhere), so the readers that must give
  openapi-core's answers (request validation) pass ``through=False``;
- the keys next to a ``$ref`` are ignored (OpenAPI 3.0's rule; a 3.1 reference's ``summary`` and
  ``description`` are prose, never judged);
- a chain that comes back to a reference it is still following is circular, and a pointer to a key
  or item that does not exist points nowhere: both are :class:`RefError`.

Readers that must not fail on a broken reference (request validation judges every request and
never aborts a run) use ``lenient=True``: any reference that cannot be followed then resolves to an
empty object, which such readers already treat as "nothing declared". Targets are memoised per
resolver (the document is read-only).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import unquote

from wapii_core.base.errors import InputError

Location = tuple[Any, ...]
"""Keys and list indexes from the document's root to a node."""

_MISSING = object()


def pointer(ref: str) -> list[str]:
    """The keys of the local reference ``ref`` (``#`` or ``#/...``): percent-decoded, ``~1`` / ``~0`` unescaped."""
    if ref == "#":
        return []
    return [part.replace("~1", "/").replace("~0", "~") for part in unquote(ref[2:]).split("/")]


class RefError(InputError):
    """A ``$ref`` that cannot be followed: to another file, circular, or pointing nowhere."""


class Resolver:
    """Follows ``$ref`` chains in one parsed document (see the module docstring for the rules).

    ``path`` names the spec in errors; ``lenient``: a reference that cannot be followed resolves to
    ``{}`` instead of raising; ``through``: follow references met on the way to a pointer's target.
    Calling the resolver on a node gives the node itself when it is no reference, else what its
    chain ends at; :meth:`located` also says where that is.
    """

    def __init__(self, doc: Any, path: Path | str, *, lenient: bool = False, through: bool = True) -> None:
        self.doc = doc
        self.path = path
        self.lenient = lenient
        self.through = through
        self._targets: dict[str, tuple[Any, Location]] = {}  # one reference -> what it points to
        self._ends: dict[str, tuple[Any, Location]] = {}  # a chain's first reference -> where it ends

    def __call__(self, node: Any) -> Any:
        """``node`` with its ``$ref`` chain followed (``node`` itself when it is no reference)."""
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if not isinstance(ref, str):
            return node
        end = self._ends.get(ref)
        return end[0] if end is not None else self.located(node, ())[0]

    def located(self, node: Any, location: Location) -> tuple[Any, Location]:
        """``self(node)`` and where it is: ``location`` (where ``node`` is) when ``node`` is no
        reference, else the keys from the root to its target (from the last reference followed on
        the way, so that the keys can be walked directly)."""
        ref = node.get("$ref") if isinstance(node, dict) else None
        if not isinstance(ref, str):
            return node, location
        end = self._ends.get(ref)
        if end is None:
            try:
                end = self._ends[ref] = self._follow(node, location, frozenset())
            except RefError:
                if self.lenient:
                    return {}, location
                raise
        return end

    def target(self, ref: str) -> Any:
        """What the one reference ``ref`` points to (its own ``$ref``, if any, not followed)."""
        try:
            return self._target(ref, frozenset())[0]
        except RefError:
            if self.lenient:
                return {}
            raise

    def _follow(self, node: Any, location: Location, active: frozenset[str]) -> tuple[Any, Location]:
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            ref = node["$ref"]
            if ref in active:
                raise RefError(self.path, f"circular $ref {ref!r}")
            active = active | {ref}
            node, location = self._target(ref, active)
        return node, location

    def _target(self, ref: str, active: frozenset[str]) -> tuple[Any, Location]:
        found = self._targets.get(ref, _MISSING)
        if found is not _MISSING:
            return found
        if ref != "#" and not ref.startswith("#/"):
            raise RefError(self.path, f"unsupported $ref {ref!r}: only references inside the document are "
                                      "followed (bundle the description into one file first)")
        node: Any = self.doc
        location: Location = ()
        for part in pointer(ref):
            if self.through:
                node, location = self._follow(node, location, active)
            if isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node, location = node[int(part)], (*location, int(part))
            elif isinstance(node, dict) and part in node:
                node, location = node[part], (*location, part)
            else:
                raise RefError(self.path, f"$ref {ref!r} points nowhere")
        found = self._targets[ref] = (node, location)
        return found
