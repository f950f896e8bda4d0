"""Value types: what a grammar needs of a JSON schema, reduced to a small closed set of shapes.

:func:`value_type` turns an OpenAPI schema into one of the frozen (hashable) types below, so that
equal schemas share one grammar rule. The reduction only ever *loosens* a schema: keywords that
restrict values further than the type (``pattern``, ``minimum``, ``maxItems`` …) are dropped, and
what cannot be expressed becomes :data:`ANY` with a note in :class:`Notes` (the fallbacks a
constraint logs). Objects are *closed* (only their declared properties, the reference's reading)
unless they declare ``additionalProperties`` or declare no properties at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Union

MAX_DEPTH = 6
"""Objects and arrays nested deeper than this become :data:`ANY` (a logged fallback)."""
MAX_KEYS = 64
"""More properties than this cannot be tracked one bit each: the object accepts its keys in any
order and any number of times, and does not enforce required ones (a logged fallback)."""


@dataclass(frozen=True)
class Str:
    """A string; ``enum`` restricts it to these values; ``header``: an HTTP header value (visible
    ASCII first, then printable ASCII, no escapes: what HTTP clients send without raising)."""

    enum: tuple[str, ...] | None = None
    header: bool = False


@dataclass(frozen=True)
class Int:
    """An integer; ``enum`` restricts it to these values."""

    enum: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Num:
    """Any number (integers included)."""


@dataclass(frozen=True)
class Bool:
    """``true`` or ``false``."""


@dataclass(frozen=True)
class Null:
    """``null``."""


@dataclass(frozen=True)
class Any_:
    """Any value (an untyped schema, or a fallback)."""


@dataclass(frozen=True)
class Arr:
    """A list of ``item`` values."""

    item: "VType"


@dataclass(frozen=True)
class Prop:
    """One property of an object."""

    name: str
    type: "VType"
    required: bool = False


@dataclass(frozen=True)
class Obj:
    """An object: each property at most once, in any order, required ones present.

    ``extra``: the type of undeclared keys' values (None: no undeclared keys). ``unique`` is False
    for objects with more than :data:`MAX_KEYS` properties (see there).
    """

    props: tuple[Prop, ...] = ()
    extra: "VType | None" = None
    unique: bool = True


@dataclass(frozen=True)
class OneOf:
    """Any of ``options``."""

    options: tuple["VType", ...]


VType = Union[Str, Int, Num, Bool, Null, Any_, Arr, Obj, OneOf]
STRING, INTEGER, NUMBER, BOOLEAN, NULL, ANY = Str(), Int(), Num(), Bool(), Null(), Any_()
HEADER_STRING = Str(header=True)


def as_header(kind: VType) -> VType:
    """``kind`` for a header value: a free string becomes :data:`HEADER_STRING`."""
    return HEADER_STRING if kind == STRING else kind


@dataclass
class Notes:
    """The fallbacks taken while reducing schemas (``where: what``), in order, without repeats."""

    items: list[str] = field(default_factory=list)

    def add(self, where: str, what: str) -> None:
        line = f"{where}: {what}"
        if line not in self.items:
            self.items.append(line)


Resolve = Callable[[Any], Any]


def one_of(options: list[VType]) -> VType:
    """The union of ``options``, flattened and without repeats (ANY absorbs everything)."""
    flat: list[VType] = []
    for option in options:
        for part in option.options if isinstance(option, OneOf) else (option,):
            if isinstance(part, Any_):
                return ANY
            if part not in flat:
                flat.append(part)
    if not flat:
        return ANY
    return flat[0] if len(flat) == 1 else OneOf(tuple(flat))


def value_type(schema: Any, resolve: Resolve, notes: Notes, where: str, depth: int = 0) -> VType:
    """The value type of an OpenAPI 3.0/3.1 ``schema`` (``$ref`` followed through ``resolve``)."""
    schema = resolve(schema)
    if not isinstance(schema, dict):
        return ANY
    if depth > MAX_DEPTH:
        notes.add(where, f"nested deeper than {MAX_DEPTH} levels: any value accepted there")
        return ANY
    if "enum" in schema or "const" in schema:
        values = schema["enum"] if "enum" in schema else [schema["const"]]
        found = _enum_type(values if isinstance(values, list) else [], notes, where)
    elif "allOf" in schema:
        found = _all_of(schema, resolve, notes, where, depth)
    elif "oneOf" in schema or "anyOf" in schema:
        parts = schema.get("oneOf") or schema.get("anyOf") or []
        found = one_of([value_type(p, resolve, notes, where, depth) for p in parts if p is not None]) if parts else ANY
    else:
        kind = schema.get("type")
        kinds = kind if isinstance(kind, list) else [kind]
        found = one_of([_typed(k, schema, resolve, notes, where, depth) for k in kinds])
    if schema.get("nullable") is True:
        found = one_of([found, NULL])
    return found


def _typed(kind: Any, schema: dict[str, Any], resolve: Resolve, notes: Notes, where: str, depth: int) -> VType:
    if kind == "string":
        return STRING
    if kind == "integer":
        return INTEGER
    if kind == "number":
        return NUMBER
    if kind == "boolean":
        return BOOLEAN
    if kind == "null":
        return NULL
    if kind == "array" or (kind is None and "items" in schema):
        items = schema.get("items")
        return Arr(value_type(items, resolve, notes, f"{where}[]", depth + 1) if items is not None else ANY)
    if kind == "object" or (kind is None and ("properties" in schema or "additionalProperties" in schema)):
        return _object(schema, resolve, notes, where, depth)
    if kind is not None:
        notes.add(where, f"unknown type {kind!r}: any value accepted")
    return ANY


def _object(schema: dict[str, Any], resolve: Resolve, notes: Notes, where: str, depth: int) -> VType:
    properties = resolve(schema.get("properties"))
    properties = properties if isinstance(properties, dict) else {}
    required = set(r for r in schema.get("required") or [] if isinstance(r, str))
    props = tuple(Prop(str(name), value_type(sub, resolve, notes, f"{where}.{name}", depth + 1), str(name) in required)
                  for name, sub in properties.items())
    extra_schema = resolve(schema.get("additionalProperties"))
    extra: VType | None = None
    if isinstance(extra_schema, dict) and extra_schema:
        extra = value_type(extra_schema, resolve, notes, f"{where}.*", depth + 1)
    elif extra_schema is True or extra_schema == {} or (not props and extra_schema is not False):
        extra = ANY
    if len(props) > MAX_KEYS:
        notes.add(where, f"{len(props)} properties (over {MAX_KEYS}): repeats allowed, required ones not enforced")
        return Obj(props, extra, unique=False)
    return Obj(props, extra)


def _all_of(schema: dict[str, Any], resolve: Resolve, notes: Notes, where: str, depth: int) -> VType:
    """allOf: the parts' object properties merged (later ones win), else the first typed part."""
    own = {k: v for k, v in schema.items() if k != "allOf"}
    parts = [value_type(p, resolve, notes, where, depth) for p in schema.get("allOf") or []]
    if own.get("type") or own.get("properties"):
        parts.append(value_type(own, resolve, notes, where, depth))
    objects = [p for p in parts if isinstance(p, Obj)]
    if objects and len(objects) == len([p for p in parts if not isinstance(p, Any_)]):
        merged: dict[str, Prop] = {}
        for obj in objects:
            for prop in obj.props:
                before = merged.get(prop.name)
                merged[prop.name] = Prop(prop.name, prop.type, prop.required or bool(before and before.required))
        extras = [o.extra for o in objects if o.extra is not None]
        extra = extras[0] if extras and len(extras) == len(objects) else None
        if not merged:
            extra = ANY
        return Obj(tuple(merged.values()), extra, unique=len(merged) <= MAX_KEYS)
    typed = [p for p in parts if not isinstance(p, Any_)]
    if len(typed) > 1:
        notes.add(where, "allOf of non-object schemas: the first one is used")
    return typed[0] if typed else ANY


def _enum_type(values: list[Any], notes: Notes, where: str) -> VType:
    strings = tuple(v for v in values if isinstance(v, str))
    ints = tuple(v for v in values if isinstance(v, int) and not isinstance(v, bool))
    options: list[VType] = []
    if strings:
        options.append(Str(tuple(dict.fromkeys(strings))))
    if ints:
        options.append(Int(tuple(dict.fromkeys(ints))))
    if any(isinstance(v, bool) for v in values):
        options.append(BOOLEAN)
    if any(v is None for v in values):
        options.append(NULL)
    if any(isinstance(v, (float, list, dict)) for v in values):
        notes.add(where, "enum of numbers, lists or objects: their type accepted instead")
        options.append(ANY)
    return one_of(options)
