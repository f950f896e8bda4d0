"""openapi-core's decoding of a request, on plain values: what the compiled engine runs per request.

openapi-core reads a parameter or form field through its style (``form_loads``, ``simple_loads``)
from werkzeug's ``ImmutableMultiDict`` / ``Headers``, casts it by its schema type
(``SchemaCaster``), finds the body's media type (``MediaTypeFinder``) and parses a multipart body
with the standard library's e-mail parser. The functions here do the same on lists and dicts,
for the cases :mod:`wapii_core.openapi.compiled_engine` covers; each raises :class:`Unsupported` where
openapi-core would take a path they do not follow, and the request is then left to openapi-core.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable
from typing import Any, Callable, TypeVar

OPENAPI_CORE_JSON = ("application/json", "application/vnd.api+json")
"""The media types openapi-core itself parses as JSON (its deserialisers' list, not what wapii calls
JSON: :func:`wapii_core.base.media.is_json`); any other, bar forms, it does not parse: left to it."""
TRUE_VALUES = ("y", "yes", "t", "true", "on", "1")
FALSE_VALUES = ("n", "no", "f", "false", "off", "0")

M = TypeVar("M")


class Unsupported(Exception):
    """Something openapi-core must answer for (see the module docstring)."""


class CastFailure(Exception):
    """openapi-core's ``CastError``: ``value`` could not be cast to ``schema_type``."""

    def __init__(self, value: Any, schema_type: str | None) -> None:
        super().__init__(value, schema_type)
        self.value, self.schema_type = value, schema_type


class EmptyQueryValue(Exception):
    """openapi-core's ``EmptyQueryParameterValue``: a query value that is the empty string."""


class MultiDict:
    """werkzeug's ``ImmutableMultiDict`` as openapi-core reads it: ``[name]`` is the first value."""

    def __init__(self, items: Iterable[tuple[str, str]]) -> None:
        self.values: dict[str, list[str]] = {}
        for name, value in items:
            self.values.setdefault(name, []).append(value)

    def __contains__(self, name: str) -> bool:
        return name in self.values

    def __getitem__(self, name: str) -> str:
        return self.values[name][0]

    def getlist(self, name: str) -> list[str]:
        return list(self.values.get(name, ()))


NO_COOKIES = MultiDict(())


def find_media_type(mimetype: str, content: dict[str, M]) -> tuple[str, dict[str, str], M | None]:
    """openapi-core's ``MediaTypeFinder.find``: the media type it deserialises as, its parameters, the entry."""
    mime_type, parameters = parse_mimetype(mimetype)
    for candidate in (mimetype, mime_type):
        if candidate in content:
            return mime_type, parameters, content[candidate]
    if mime_type:
        for key, media in content.items():
            if fnmatch.fnmatch(mime_type, key):
                return key, parameters, media
    return mimetype, parameters, None


def parse_mimetype(mimetype: str) -> tuple[str, dict[str, str]]:
    """openapi-core's ``MediaTypeFinder.parse_mimetype`` (RFC 9110 parameters: names lower-cased, quotes removed)."""
    parts = mimetype.split(";")
    parameters = {}
    for parameter in parts[1:]:
        pieces = parameter.split("=")
        if len(pieces) != 2:
            raise Unsupported("a media type parameter openapi-core cannot split")
        name, value = pieces[0].lower().lstrip(), re.sub('^"(.*)"$', r"\1", pieces[1], count=1)
        parameters[name] = (value.lower() if name == "charset" else value).rstrip()
    return parts[0].lower().rstrip(), parameters


def multipart_parts(body: bytes, parameters: dict[str, str]) -> list[tuple[str, bytes]]:
    """The (name, bytes) parts of a multipart body, read with the standard library's e-mail parser as
    openapi-core reads them (its ``data_form_loads``); a body it would choke on is left to it."""
    from email.message import Message
    from email.parser import Parser

    text = body.decode(parameters.get("charset", "ASCII"), errors="surrogateescape")
    header = f'Content-Type: multipart/form-data; boundary="{parameters.get("boundary", "")}"'
    message = Parser().parsestr("\n\n".join([header, text]), headersonly=False)
    parts = []
    for part in message.get_payload():
        name = part.get_param("name", header="content-disposition") if isinstance(part, Message) else None
        payload = part.get_payload(decode=True) if isinstance(part, Message) else None
        if not isinstance(name, str) or not isinstance(payload, bytes):
            raise Unsupported("a multipart body openapi-core would not read")
        parts.append((name, payload))
    return parts


def read_part(media_type: str | None, payload: bytes) -> Any:
    """A part's bytes as openapi-core deserialises them for its content type."""
    if media_type == "text/plain":
        try:
            return payload.decode("utf-8")
        except UnicodeDecodeError:
            return payload.decode("ASCII", errors="surrogateescape")
    if media_type == "application/octet-stream":
        return payload
    raise Unsupported(f"a part of media type {media_type}")


def deserialise(load: Callable[..., Any], explode: bool, name: str, schema_type: str,
                 cast: Callable[[Any], Any], location: Any) -> Any:
    """openapi-core's ``StyleDeserializer.deserialize``: the raw value (``KeyError`` when absent), cast."""
    try:
        value = load(explode, name, schema_type, location)
    except (ValueError, TypeError, AttributeError) as exc:
        raise Unsupported("a value the style cannot split") from exc
    try:
        return cast(value)
    except (ValueError, TypeError, AttributeError) as exc:
        raise CastFailure(value, schema_type) from exc


def form_load(explode: bool, name: str, schema_type: str, location: Any) -> Any:
    """openapi-core's ``form_loads`` for everything but objects."""
    if schema_type == "array":
        if not explode:
            return location[name].split(",")
        if name not in location:
            raise KeyError(name)
        return location.getlist(name)
    return location[name]


def simple_load(explode: bool, name: str, schema_type: str, location: Any) -> Any:
    """openapi-core's ``simple_loads`` for everything but objects."""
    value = location[name]
    return value.split(",") if schema_type == "array" else value


def same(value: Any) -> Any:
    return value


def primitive(convert: Callable[[Any], Any], schema_type: str) -> Callable[[Any], Any]:
    def cast(value: Any) -> Any:
        if value is None:
            return None
        try:
            return convert(value)
        except (ValueError, TypeError) as exc:
            raise CastFailure(value, schema_type) from exc

    return cast


def boolean(value: Any) -> Any:
    if value is None or isinstance(value, bool):
        return value
    lowered = value.lower()  # not a string: AttributeError, which the style deserialiser reports as a cast error
    if lowered in TRUE_VALUES:
        return True
    if lowered in FALSE_VALUES:
        return False
    raise CastFailure(value, "boolean")


def array(item: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """openapi-core's ``ArrayCaster``: a list, each item cast by ``item``."""
    def cast(value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
            raise CastFailure(value, "array")
        return [item(v) for v in value]

    return cast


def composed(all_of: list[Callable[[Any], Any]], first_of: list[Callable[[Any], Any]]) -> Callable[[Any], Any]:
    """openapi-core's ``AnyCaster`` (an untyped schema composed of parts): each of ``all_of`` casts the
    value in turn, one that cannot leaves it as it was; then the first of ``first_of`` (the ``oneOf``
    parts, then the ``anyOf`` ones) that can cast it gives the result; else the value as it stands."""
    def cast(value: Any) -> Any:
        for part in all_of:
            try:
                value = part(value)
            except (ValueError, TypeError, CastFailure):
                pass
        for part in first_of:
            try:
                return part(value)
            except (ValueError, TypeError, CastFailure):
                pass
        return value

    return cast
