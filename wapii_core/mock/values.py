"""Values generated from a JSON schema (an OpenAPI schema object): deterministic for a seed, bounded.

:class:`ValueMaker` turns a schema into a value meant to validate against it:

- ``$ref`` followed (leniently: a reference that cannot be followed is an empty schema), ``allOf``
  parts merged, the first ``oneOf`` / ``anyOf`` alternative taken (``variant`` picks another one:
  the caller tries the next where the first does not validate), ``nullable`` and ``"null"`` types
  answered with a value, not ``null``, except where the depth bound is reached;
- a schema's own ``example`` (3.1: the first of ``examples``) where it is a scalar that fits the
  schema's type, enum, pattern and bounds; then ``const``, an ``enum`` member (chosen by the seed),
  ``default``; then a value of the type that meets its ``format``, ``pattern`` (a string
  written from the regular expression, :func:`regex_string`), lengths, bounds and ``multipleOf``;
- objects get every declared property while the node budget lasts (then only the required ones;
  below :data:`NESTED_OPTIONAL` levels, optional objects and arrays are left out), arrays
  ``minItems`` items or one or two, at most :data:`MAX_ITEMS` unless ``minItems`` asks for more.

Two bounds keep a hostile schema from exploding: nesting depth (:data:`MAX_DEPTH`: deeper, an object
is ``{}`` with only its required properties at the last level, an array ``[]``) and the number of
values made for one call (:data:`MAX_NODES`: past it, optional properties are left out and arrays
hold their minimum), so reference cycles and alias bombs give a small value.
"""

from __future__ import annotations

import math
import random
import re
from typing import Any

from wapii_core.openapi.refs import Resolver


def seeded_rng(*parts: Any) -> random.Random:
    """A random generator seeded by ``parts`` (joined with ``:``): the same parts, the same values."""
    return random.Random(":".join(str(p) for p in parts))


MAX_DEPTH = 8
"""Nested objects and arrays below the top value."""
MAX_NODES = 200
"""Values made for one top value before only what the schema requires is made."""
NESTED_OPTIONAL = 2
"""Depth from which an optional property holding an object or array is left out (answers stay small)."""
MAX_ITEMS = 2
"""Items of an array whose ``minItems`` asks for no more."""
MAX_STRING = 64
"""Characters of a generated string where the schema does not ask for more."""
MAX_TAKEN = 5000
"""Nodes of a value the spec itself gives (example, enum member, const, default) that are taken as
they are; a larger one (an alias bomb) is not used."""
MAX_MERGE_DEPTH = 16
ONE_OF_TRIES = 6
"""``oneOf`` alternatives tried, each checked, before the value is left as the last one made."""
AVOID = "x-wapii-avoid"
FIXED = "x-wapii-fixed"
"""Where :meth:`ValueMaker.merged` notes the discriminator property's value for the alternative chosen."""
"""Where :meth:`ValueMaker.merged` notes the optional properties a ``oneOf`` alternative's value leaves
out: those another alternative requires (the value then matches only the one chosen)."""
"""``allOf`` nesting followed when merging parts."""

_FORMATS = {
    "date-time": lambda r: f"2024-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T{r.randint(0, 23):02d}:00:00Z",
    "date": lambda r: f"2024-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}",
    "time": lambda r: f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:00Z",
    "email": lambda r: f"user{r.randint(1, 999)}@example.com",
    "uri": lambda r: f"https://example.com/{r.randint(1, 999)}",
    "url": lambda r: f"https://example.com/{r.randint(1, 999)}",
    "uri-reference": lambda r: f"/items/{r.randint(1, 999)}",
    "uuid": lambda r: "%08x-%04x-4%03x-8%03x-%012x" % (r.getrandbits(32), r.getrandbits(16), r.getrandbits(12),
                                                       r.getrandbits(12), r.getrandbits(48)),
    "hostname": lambda r: f"host{r.randint(1, 99)}.example.com",
    "ipv4": lambda r: f"192.0.2.{r.randint(1, 254)}",
    "ipv6": lambda r: f"2001:db8::{r.randint(1, 9999):x}",
    "byte": lambda r: "aGVsbG8=",
    "binary": lambda r: "binary",
    "int64": lambda r: str(r.randint(1, 10**9)),
}


def regex_string(pattern: str, rng: random.Random) -> str | None:
    """A string that ``re.search(pattern, ...)`` finds a match in, or None where the pattern uses
    what this writer does not follow (lookarounds, back references); short, deterministic for ``rng``."""
    import re._parser as sre_parse  # noqa: PLC0415 - the standard library's own regex parser
    from re import _constants as c

    try:
        tree = sre_parse.parse(pattern)
    except (re.error, RecursionError, OverflowError):
        return None

    def write(items: Any, depth: int) -> str:
        if depth > 20:
            raise ValueError("nesting")
        out = []
        for op, arg in items:
            if op is c.LITERAL:
                out.append(chr(arg))
            elif op is c.ANY:
                out.append("x")
            elif op is c.IN:
                out.append(pick(arg))
            elif op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
                low, high, sub = arg
                count = low if low > 0 else (1 if high != 0 else 0)
                count = min(count if high is c.MAXREPEAT else min(count, high), 256)
                out.extend(write(sub, depth + 1) for _ in range(count))
            elif op is c.SUBPATTERN:
                out.append(write(arg[-1], depth + 1))
            elif op is c.BRANCH:
                out.append(write(arg[1][0], depth + 1))
            elif op is c.AT:
                continue
            elif op is c.NOT_LITERAL:
                out.append("a" if arg != ord("a") else "b")
            elif op is getattr(c, "ATOMIC_GROUP", None):
                out.append(write(arg, depth + 1))
            else:
                raise ValueError(f"unsupported {op}")
        return "".join(out)

    def pick(members: list[Any]) -> str:
        if members and members[0][0] is c.NEGATE:
            banned = {chr(a) for op, a in members[1:] if op is c.LITERAL}
            return next(ch for ch in "xyzab0" if ch not in banned)
        options: list[str] = []
        for op, arg in members:
            if op is c.LITERAL:
                options.append(chr(arg))
            elif op is c.RANGE:
                options.append(chr(rng.randint(arg[0], min(arg[1], arg[0] + 25))))
            elif op is c.CATEGORY:
                options.append({c.CATEGORY_DIGIT: rng.choice("0123456789"), c.CATEGORY_WORD: rng.choice("abcdefgh"),
                                c.CATEGORY_SPACE: " ", c.CATEGORY_NOT_DIGIT: "a", c.CATEGORY_NOT_WORD: "-",
                                c.CATEGORY_NOT_SPACE: "a"}.get(arg, "a"))
        return rng.choice(options) if options else "a"

    try:
        text = write(tree, 0)
    except (ValueError, StopIteration, RecursionError):
        return None
    try:
        return text if re.search(pattern, text) else None
    except re.error:
        return None


class ValueMaker:
    """Makes values for the schemas of one document (see the module docstring)."""

    def __init__(self, resolve: Resolver, openapi31: bool = False, check: Any = None) -> None:
        self.resolve = resolve
        self.openapi31 = openapi31
        self.check = check
        """``check(schema, value) -> bool``: where given, a ``oneOf``'s alternatives are tried in turn
        until the value made validates against the ``oneOf`` (at most :data:`ONE_OF_TRIES`)."""

    # ------------------------------------------------------------------ schemas

    def merged(self, schema: Any, variant: int = 0, depth: int = 0) -> dict[str, Any]:
        """``schema`` resolved, its ``allOf`` parts merged in and one ``oneOf`` / ``anyOf`` alternative
        (the ``variant``-th, wrapping) merged in too; ``{}`` for anything that is no schema object."""
        schema = self.resolve(schema)
        if not isinstance(schema, dict) or depth > MAX_MERGE_DEPTH:
            return {}
        merged = {k: v for k, v in schema.items() if k not in ("allOf", "oneOf", "anyOf", "$ref")}
        parts = list(schema.get("allOf") or []) if isinstance(schema.get("allOf"), list) else []
        avoid: set[str] = set()
        fixed: dict[str, str] = {}
        for key in ("oneOf", "anyOf"):
            options = schema.get(key)
            if isinstance(options, list) and options:
                usable = [o for o in options if self._type_of(self.merged(o, 0, depth + 1)) != "null"] or options
                chosen = usable[variant % len(usable)]
                parts.append(chosen)
                fixed = self._discriminated(schema, chosen)
                if key == "oneOf":  # leave out what another alternative requires, so that only this one matches
                    mine = set(self.merged(chosen, 0, depth + 1).get("required") or [])
                    for other in usable:
                        if other is not chosen:
                            avoid |= set(self.merged(other, 0, depth + 1).get("required") or []) - mine
                break
        for part in parts:
            part = self.merged(part, variant, depth + 1)
            properties = {**(self.resolve(part.get("properties")) or {}),
                          **(self.resolve(merged.get("properties")) or {})}
            required = list(dict.fromkeys([*(part.get("required") or []), *(merged.get("required") or [])]))
            merged = {**part, **merged}
            if properties:
                merged["properties"] = properties
            if required:
                merged["required"] = required
        if avoid:
            merged[AVOID] = avoid - set(merged.get("required") or [])
        if fixed:
            merged[FIXED] = fixed
        return merged

    def _discriminated(self, schema: dict[str, Any], chosen: Any) -> dict[str, str]:
        """The discriminator property's value naming the ``chosen`` alternative (its mapping key, else
        the name of the schema it references), as a discriminating validator reads it."""
        discriminator = schema.get("discriminator")
        ref = chosen.get("$ref") if isinstance(chosen, dict) else None
        if not isinstance(discriminator, dict) or not isinstance(discriminator.get("propertyName"), str) \
                or not isinstance(ref, str):
            return {}
        mapping = discriminator.get("mapping") if isinstance(discriminator.get("mapping"), dict) else {}
        key = next((k for k, v in mapping.items() if v == ref), ref.rsplit("/", 1)[-1])
        return {discriminator["propertyName"]: key}

    def _type_of(self, schema: dict[str, Any]) -> str | None:
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "null" if kind else None)
        if kind is None:
            if isinstance(schema.get("properties"), dict) or isinstance(schema.get("additionalProperties"), dict):
                return "object"
            if "items" in schema:
                return "array"
        return kind if isinstance(kind, str) else None

    def object_properties(self, schema: Any) -> dict[str, Any]:
        """The declared properties of an object schema (``allOf`` merged), by name."""
        properties = self.resolve(self.merged(schema).get("properties"))
        return properties if isinstance(properties, dict) else {}

    def plain_kind(self, schema: Any) -> str | None:
        """The JSON type a schema's ``type`` (its ``allOf`` parts' included) says, whatever ``oneOf`` /
        ``anyOf`` alternative is taken; ``object`` for a schema with properties; else None (any)."""
        schema = self.resolve(schema)
        if isinstance(schema, dict) and (schema.get("oneOf") or schema.get("anyOf")) and "type" not in schema:
            return None
        merged = self.merged(schema)
        kind = merged.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), None)
        if kind is None and isinstance(merged.get("properties"), dict):
            return "object"
        return kind if isinstance(kind, str) else None

    def kind(self, schema: Any) -> str | None:
        """The JSON type a schema asks for (``object``, ``array``, ``string``, ...; None: any)."""
        return self._type_of(self.merged(schema))

    # ------------------------------------------------------------------ values

    def make(self, schema: Any, rng: random.Random, name: str = "", variant: int = 0) -> Any:
        """A value for ``schema`` as a response carries it (no ``writeOnly`` property); ``name``: the
        property or parameter it is for (used in strings); ``variant``: which ``oneOf`` / ``anyOf``
        alternative to take."""
        return _Making(self, rng, variant).value(schema, name, 0)

    def scalar_fits(self, value: Any, schema: dict[str, Any]) -> bool:
        """Whether a scalar ``value`` meets a merged ``schema``'s type, enum, pattern, lengths and bounds."""
        kind = self._type_of(schema)
        if isinstance(value, (dict, list)) or value is None:
            return False
        if isinstance(schema.get("enum"), list) and value not in schema["enum"]:
            return False
        if kind == "string":
            if not isinstance(value, str):
                return False
            if isinstance(schema.get("minLength"), int) and len(value) < schema["minLength"]:
                return False
            if isinstance(schema.get("maxLength"), int) and len(value) > schema["maxLength"]:
                return False
            pattern = schema.get("pattern")
            if isinstance(pattern, str):
                try:
                    if re.search(pattern, value) is None:
                        return False
                except re.error:
                    return False
            return _format_fits(value, schema.get("format"))
        if kind in ("integer", "number"):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                return False
            if kind == "integer" and not float(value).is_integer():
                return False
            return _in_bounds(value, schema)
        if kind == "boolean":
            return isinstance(value, bool)
        return False


def small(value: Any, limit: int = MAX_TAKEN) -> bool:
    """Whether ``value`` (taken from the spec: an example, an enum member) has at most ``limit`` nodes,
    counted as a JSON tree (a YAML alias shared a million times counts a million times)."""
    stack, count = [value], 0
    while stack:
        node = stack.pop()
        count += 1
        if count > limit:
            return False
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return True


def _format_fits(value: str, form: Any) -> bool:
    """Whether a string meets its ``format`` as the response validation checks it."""
    if not isinstance(form, str):
        return True
    from openapi_schema_validator import OAS30ReadValidator

    try:
        return OAS30ReadValidator.FORMAT_CHECKER.conforms(value, form)
    except Exception:  # noqa: BLE001 - a checker that cannot decide: the example is not used
        return False


def _in_bounds(value: float, schema: dict[str, Any]) -> bool:
    low, high = schema.get("minimum"), schema.get("maximum")
    ex_low, ex_high = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if _number(low) and (value < low or (ex_low is True and value == low)):
        return False
    if _number(high) and (value > high or (ex_high is True and value == high)):
        return False
    if _number(ex_low) and value <= ex_low:
        return False
    if _number(ex_high) and value >= ex_high:
        return False
    step = schema.get("multipleOf")
    return not (_number(step) and step > 0 and not math.isclose(value / step, round(value / step)))


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class _Making:
    """One call of :meth:`ValueMaker.make`: its random source, variant and node budget."""

    def __init__(self, maker: ValueMaker, rng: random.Random, variant: int) -> None:
        self.maker, self.rng, self.variant = maker, rng, variant
        self.nodes = 0

    def value(self, schema: Any, name: str, depth: int) -> Any:
        resolved = self.maker.resolve(schema)
        options = resolved.get("oneOf") if isinstance(resolved, dict) else None
        if self.maker.check is None or not isinstance(options, list) or len(options) < 2:
            return self._value(schema, name, depth, self.variant)
        made = None
        for variant in range(self.variant, self.variant + min(len(options), ONE_OF_TRIES)):
            made = self._value(schema, name, depth, variant)
            if self.maker.check(resolved, made):
                break
        return made

    def _value(self, schema: Any, name: str, depth: int, variant: int) -> Any:
        self.nodes += 1
        schema = self.maker.merged(schema, variant)
        kind = self.maker._type_of(schema)
        nullable = schema.get("nullable") is True or (isinstance(schema.get("type"), list) and "null" in schema["type"])
        if kind == "null":
            return None
        if depth >= MAX_DEPTH and nullable:
            return None
        example = schema.get("example")
        if example is None and isinstance(schema.get("examples"), list) and schema["examples"]:
            example = schema["examples"][0]
        if example is not None and self.maker.scalar_fits(example, schema):
            return example
        if "const" in schema and small(schema["const"]):
            return schema["const"]
        enum = schema.get("enum")
        if isinstance(enum, list) and enum:
            members = [m for m in enum[:MAX_TAKEN] if m is not None and small(m)]
            if members:
                return self.rng.choice(members)
        default = schema.get("default")
        if default is not None and self.maker.scalar_fits(default, schema):
            return default
        if kind == "object":
            return self._object(schema, depth)
        if kind == "array":
            return self._array(schema, name, depth)
        if kind == "integer" or kind == "number":
            return self._number(schema, kind)
        if kind == "boolean":
            return self.rng.random() < 0.5
        if kind is None and depth >= MAX_DEPTH:
            return None if nullable else ""
        return self._string(schema, name)

    def _object(self, schema: dict[str, Any], depth: int) -> dict[str, Any]:
        properties = self.maker.resolve(schema.get("properties"))
        properties = properties if isinstance(properties, dict) else {}
        required = [r for r in schema.get("required") or [] if isinstance(r, str)]
        avoid = schema.get(AVOID) or set()
        out: dict[str, Any] = dict(schema.get(FIXED) or {})
        for prop in required:
            if self._write_only(properties.get(prop)):
                continue
            if depth >= MAX_DEPTH:
                out[prop] = self._shallow(properties.get(prop))
            else:
                out[prop] = self.value(properties.get(prop, {}), prop, depth + 1)
        if depth < MAX_DEPTH:
            for prop, sub in properties.items():
                if prop in out or not isinstance(prop, str) or self._write_only(sub) or prop in avoid:
                    continue
                if depth >= NESTED_OPTIONAL and self.maker.kind(sub) in ("object", "array"):
                    continue
                if self.nodes >= MAX_NODES:
                    break
                out[prop] = self.value(sub, prop, depth + 1)
        minimum = schema.get("minProperties")
        extra = self.maker.resolve(schema.get("additionalProperties"))
        if isinstance(minimum, int) and len(out) < minimum and extra is not False:
            for i in range(min(minimum - len(out), 8)):
                out[f"key{i}"] = self.value(extra if isinstance(extra, dict) else {}, "value", depth + 1)
        return out

    def _write_only(self, schema: Any) -> bool:
        schema = self.maker.resolve(schema)
        return isinstance(schema, dict) and schema.get("writeOnly") is True

    def _shallow(self, schema: Any) -> Any:
        """A value at the depth bound: a scalar where the schema asks for one, else an empty container."""
        schema = self.maker.merged(schema, self.variant)
        kind = self.maker._type_of(schema)
        if schema.get("nullable") is True:
            return None
        if kind == "object":
            return {}
        if kind == "array":
            return []
        return self.value(schema, "", MAX_DEPTH) if kind not in (None, "object", "array") else None

    def _array(self, schema: dict[str, Any], name: str, depth: int) -> list[Any]:
        low = schema.get("minItems") if isinstance(schema.get("minItems"), int) else 0
        high = schema.get("maxItems") if isinstance(schema.get("maxItems"), int) else None
        if depth >= MAX_DEPTH or self.nodes >= MAX_NODES:
            count = low
        else:
            count = max(low, 1 if self.rng.random() < 0.75 else MAX_ITEMS)
        count = min(count, high) if high is not None else count
        count = min(count, max(low, 64))
        items = []
        seen = []
        for _ in range(count):
            item = self.value(schema.get("items", {}), name, depth + 1)
            if schema.get("uniqueItems") is True and item in seen and len(items) >= low:
                continue
            seen.append(item)
            items.append(item)
        return items

    def _number(self, schema: dict[str, Any], kind: str) -> int | float:
        low, high = schema.get("minimum"), schema.get("maximum")
        ex_low, ex_high = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
        lower = low if _number(low) else (ex_low if _number(ex_low) else None)
        upper = high if _number(high) else (ex_high if _number(ex_high) else None)
        if lower is not None and (ex_low is True or _number(ex_low)):
            lower = lower + (1 if kind == "integer" else 0.5)
        if upper is not None and (ex_high is True or _number(ex_high)):
            upper = upper - (1 if kind == "integer" else 0.5)
        start = lower if lower is not None else (upper - 100 if upper is not None else 1)
        end = upper if upper is not None else start + 1000
        if end < start:
            end = start
        step = schema.get("multipleOf")
        if _number(step) and step > 0:
            first = math.ceil(start / step)
            last = max(first, math.floor(end / step))
            value = self.rng.randint(int(first), int(min(last, first + 100))) * step
            return int(value) if kind == "integer" and float(value).is_integer() else value
        if kind == "integer":
            return self.rng.randint(math.ceil(start), max(math.ceil(start), math.floor(end)))
        return round(self.rng.uniform(start, end), 2) if end > start else start

    def _string(self, schema: dict[str, Any], name: str) -> str:
        low = schema.get("minLength") if isinstance(schema.get("minLength"), int) else 0
        high = schema.get("maxLength") if isinstance(schema.get("maxLength"), int) else None
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            text = regex_string(pattern, self.rng)
            if text is not None and len(text) >= low and (high is None or len(text) <= high):
                return text
        made = _FORMATS.get(str(schema.get("format")))
        text = made(self.rng) if made is not None else f"{_word(name)}-{self.rng.randint(1, 9999)}"
        if high is not None and len(text) > high:
            text = text[:high]
        if len(text) < low:
            text += "x" * min(low - len(text), 4096)
        return text[:max(MAX_STRING, low)]


def _word(name: str) -> str:
    word = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower()
    return word[:24] or "value"
