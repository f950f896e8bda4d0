"""The reference engine of request validation: openapi-core itself, about 0.5 ms a request.

What openapi-core builds anew for every request (the path finder's answer, schema validators, casters,
style deserialisers, resolved spec nodes) is built once per operation and kept (:func:`_memoised`);
without that a request costs 1 to 2 ms.

It serves every operation the compiled engine (:mod:`wapii_core.openapi.compiled_engine`) does not cover,
and it is what that engine is held equal to. openapi-core validates against a copy of the spec
in which every request body without a JSON media type also accepts ``application/json`` with the
schema of its first media type (what judging reads, metrics.md §5; see :func:`json_aliased`).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Iterator

from wapii_core.openapi.refs import Resolver

from wapii_core.openapi.violations import Violation, Wire, cast_where, media_kind, parameter_where, schema_violations

RESOLVED_CACHE = 65536
"""Spec locations whose resolved node openapi-core's spec object keeps (a few hundred per operation validated)."""


@dataclass
class _Request:
    """The openapi-core request protocol (host_url, path, path_pattern, method, parameters, body, content_type)."""

    host_url: str
    path: str
    path_pattern: str
    method: str
    parameters: Any
    body: bytes | None
    content_type: str

    @property
    def full_url_pattern(self) -> str:
        return self.host_url + self.path_pattern


class ReferenceSpec:
    """openapi-core's parameter and body validators for one spec document."""

    def __init__(self, document: dict[str, Any], server: str, openapi31: bool) -> None:
        from jsonschema_path import SchemaPath
        from openapi_core.validation.request import validators

        self.server = server
        # resolved_cache_maxsize: jsonschema_path keeps each location it resolved (openapi-core reads the
        # same operation, parameter and schema nodes again for every request)
        self.spec = SchemaPath.from_dict(json_aliased(document), resolved_cache_maxsize=RESOLVED_CACHE)
        version = "V31" if openapi31 else "V30"  # 3.1: its JSON Schema dialect (type lists, ...)
        parameters_cls = getattr(validators, f"{version}RequestParametersValidator")
        body_cls = getattr(validators, f"{version}RequestBodyValidator")
        # spec_validator_cls=None: real-world specs are often not strictly valid; validate requests only.
        # What openapi-core rebuilds for every request is made once per operation and kept (see _memoised)
        memoised = _memoised(self.spec, parameters_cls)
        self._parameters = parameters_cls(self.spec, spec_validator_cls=None, **memoised)
        self._body = body_cls(self.spec, spec_validator_cls=None, **memoised)

    def request(self, wire: Wire, template: str) -> _Request:
        """``wire`` in the shape openapi-core reads."""
        from openapi_core.datatypes import RequestParameters
        from werkzeug.datastructures import Headers, ImmutableMultiDict

        parameters = RequestParameters(query=ImmutableMultiDict(wire.query), header=Headers(wire.headers),
                                       path=dict(wire.path))
        return _Request(self.server, template.lstrip("/"), template.lstrip("/"), wire.method, parameters,
                        wire.body, wire.media)

    def validate(self, wire: Wire, template: str, with_body: bool) -> list[Violation]:
        """The violations openapi-core finds (the body's only when ``with_body``)."""
        request = self.request(wire, template)
        violations: list[Violation] = []
        for validator in [self._parameters] + ([self._body] if with_body else []):
            try:
                with warnings.catch_warnings():  # openapi-core warns on every deprecated allowEmptyValue
                    warnings.simplefilter("ignore", DeprecationWarning)
                    for error in validator.iter_errors(request):
                        violations += classify(error, wire.data)
            except Exception as exc:  # noqa: BLE001 - a value openapi-core cannot handle is reported, not fatal
                violations.append(Violation("other", "request", f"openapi-core could not validate it: {exc}"))
        return violations


def _memoised(spec: Any, validator_cls: Any) -> dict[str, Any]:
    """openapi-core's per-request builders, each result kept for the next request: the path finder's
    answer per (method, URL) (the URL is the operation's template, so one answer per operation), the
    jsonschema validator per schema location (with one format checker, where openapi-core deep-copies
    its own for every validator), and the style deserialiser with its caster per parameter.

    These are the validators' own constructor arguments (``path_finder_cls``,
    ``schema_validators_factory``, ``style_deserializers_factory``); what they build holds no
    request state, so one of each serves every request. Shared by the parameter and body validators.
    """
    import copy

    from openapi_core.deserializing.styles import style_deserializers
    from openapi_core.deserializing.styles.factories import StyleDeserializersFactory

    finder = _MemoisedFinder(validator_cls.path_finder_cls(spec))
    validators = copy.copy(validator_cls.schema_validators_factory)
    checker = validators.get_format_checker()
    validators.get_format_checker = lambda format_validators=None, extra_format_validators=None: (
        checker if format_validators is None and extra_format_validators is None
        else type(validators).get_format_checker(validators, format_validators, extra_format_validators))
    validators = _MemoisedFactory(validators)
    casters = copy.copy(validator_cls.schema_casters_factory)
    casters.schema_validators_factory = validators
    styles = StyleDeserializersFactory(casters, style_deserializers=style_deserializers)
    return {"path_finder_cls": lambda _spec, base_url=None: finder, "schema_validators_factory": validators,
            "schema_casters_factory": casters, "style_deserializers_factory": _MemoisedFactory(styles)}


class _MemoisedFinder:
    """An openapi-core path finder whose answer (or error) for each (method, URL) is kept."""

    def __init__(self, finder: Any) -> None:
        self._finder = finder
        self._found: dict[tuple[str, str], Any] = {}

    def find(self, method: str, name: str) -> Any:
        key = (method, name)
        found = self._found.get(key)
        if found is None:
            try:
                found = self._finder.find(method, name)
            except Exception as exc:  # noqa: BLE001 - openapi-core's PathError: kept and raised again
                found = exc
            self._found[key] = found
        if isinstance(found, Exception):
            raise found.with_traceback(None)
        return found


class _MemoisedFactory:
    """An openapi-core factory whose ``create`` result is kept per arguments (a schema by its location)."""

    def __init__(self, factory: Any) -> None:
        self._factory = factory
        self._made: dict[Any, Any] = {}

    def create(self, spec: Any, *args: Any, **kwargs: Any) -> Any:
        key = (tuple(map(_key, args)), tuple((name, _key(value)) for name, value in sorted(kwargs.items())))
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = self._factory.create(spec, *args, **kwargs)
        return made

    def __getattr__(self, name: str) -> Any:
        return getattr(self._factory, name)


def _key(value: Any) -> Any:
    """A factory argument as a dictionary key: a schema path by its location in the one spec."""
    from jsonschema_path import SchemaPath

    return ("schema", value.parts) if isinstance(value, SchemaPath) else value


def json_aliased(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` where every request body without a JSON media type also accepts
    ``application/json`` with the schema of its first media type (what judging reads, metrics.md §5).

    Copy on write: only the objects on the way from the root to each such ``content`` are copied
    (a GitHub-sized document is not copied whole); ``document`` itself is left as it is.
    """
    patched = dict(document)
    copies: dict[tuple[Any, ...], Any] = {(): patched}
    for location in _aliased_locations(document):
        node = patched
        for depth in range(len(location)):
            key = location[:depth + 1]
            if key not in copies:
                child = node[location[depth]]
                copies[key] = node[location[depth]] = list(child) if isinstance(child, list) else dict(child)
            node = copies[key]
        node["application/json"] = next(iter(node.values()))
    return patched


def aliased_contents(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``content`` objects of ``document`` that :func:`json_aliased` gives a JSON alias, each once."""
    found: dict[int, dict[str, Any]] = {}
    for location in _aliased_locations(document):
        content = _at(document, location)
        found.setdefault(id(content), content)
    return list(found.values())


def _aliased_locations(document: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Where (keys from the root, ``$ref``s followed) each ``content`` object without a JSON media
    type of an operation's request body is, each place once."""
    found: dict[tuple[Any, ...], None] = {}
    located = Resolver(document, "spec", lenient=True, through=False).located
    paths = document.get("paths")
    for template, item in (paths.items() if isinstance(paths, dict) else ()):
        item, item_at = located(item, ("paths", template))
        for method, operation in (item.items() if isinstance(item, dict) else ()):
            if not isinstance(operation, dict):
                continue
            body, body_at = located(operation.get("requestBody"), (*item_at, method, "requestBody"))
            content = body.get("content") if isinstance(body, dict) else None
            if isinstance(content, dict) and content and not any(media_kind(m) == "json" for m in content):
                found.setdefault((*body_at, "content"), None)
    return list(found)


def _at(document: Any, location: tuple[Any, ...]) -> Any:
    """The node at ``location`` (keys and list indexes from the root, as :meth:`Resolver.located` gives them)."""
    node = document
    for key in location:
        node = node[key]
    return node


def classify(error: Exception, data: Any = None) -> Iterator[Violation]:
    """openapi-core's parameter / body errors as violations (one per schema error); ``data``: the
    request's body values, to name the property of a form value that could not be cast."""
    from openapi_core.casting.schemas.exceptions import CastError
    from openapi_core.validation.schemas.exceptions import InvalidSchemaValue

    kind_name = type(error).__name__
    name = getattr(error, "name", None)
    where = parameter_where(name, getattr(error, "location", None)) if name is not None else "request body"
    if kind_name == "MissingRequestBody":  # an optional body left out
        return
    if kind_name.startswith("MissingRequired"):
        yield Violation("missing_required", where, "required but absent")
        return
    cause = error.__cause__
    if isinstance(cause, InvalidSchemaValue):
        yield from schema_violations(where, cause.schema_errors)
    elif isinstance(cause, CastError):
        yield Violation("type", cast_where(where, cause.value, data), str(cause))
    else:
        yield Violation("other", where, str(cause or error))
