"""The mock derived from one spec: built once (:meth:`SpecMock.load`), a fresh responder per sample.

The rules it answers by live beside it: :mod:`~wapii_core.mock.objects` (identifiers, what requests
change, list membership) and :mod:`~wapii_core.mock.answers` (bodies, paging, faults).

Deriving reads the parsed document wapii already holds (:func:`~wapii_core.openapi.spec_file.read_spec`:
OpenAPI 3, Swagger 2 through its conversion), plans every operation (:mod:`wapii_core.mock.plan`)
and compiles each path template for matching; answers (examples checked, schemas generated) are
made lazily, per operation, when first asked for. :meth:`SpecMock.responder` gives a
:class:`~wapii_core.mock.responder.SpecResponder` with an empty store of its own.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

from wapii_core.base.errors import InputError
from wapii_core.mock.answers import AnswerMaker
from wapii_core.mock.configs import config_request
from wapii_core.mock.declaration import Declaration, check_against, find_declaration
from wapii_core.mock.faults import FaultPlan
from wapii_core.mock.incoming import Incoming
from wapii_core.mock.objects import ObjectRules
from wapii_core.mock.plan import Planner, Step
from wapii_core.mock.responder import SpecResponder
from wapii_core.mock.schemas import SpecSchemas
from wapii_core.mock.values import ValueMaker
from wapii_core.openapi.refs import Resolver

MAX_PATHS = 20_000
"""Path templates a spec may have for the mock to derive from it (GitHub's has about 900)."""
MAX_OPERATIONS = 50_000
CACHED_MOCKS = 8
"""Derived mocks :meth:`SpecMock.for_spec` keeps per process."""
_PLACEHOLDER = re.compile(r"{([^{}]+)}")


class SpecMock(ObjectRules, AnswerMaker):
    """A stateful mock derived from one OpenAPI description (see the module docstring)."""

    def __init__(self, document: dict[str, Any], where: Path | str, declaration: Declaration | None = None) -> None:
        paths = document.get("paths")
        if not isinstance(paths, dict):
            raise InputError(where, "has no 'paths' object")
        if len(paths) > MAX_PATHS:
            raise InputError(where, f"has {len(paths)} paths; the mock derives from at most {MAX_PATHS}")
        if declaration is not None:
            check_against(declaration, where, document)
        self.document = document
        self.where = where
        self.declaration = declaration
        self.resolve = Resolver(document, where, lenient=True)
        self.schemas = SpecSchemas(document, self.resolve)
        self.values = ValueMaker(self.resolve, self.schemas.openapi31, self.schemas.valid)
        from urllib.parse import urlsplit

        servers = document.get("servers")
        url = servers[0].get("url") if isinstance(servers, list) and servers and isinstance(servers[0], dict) else "/"
        self.server = str(url or "/")
        self.server_path = urlsplit(self.server).path.rstrip("/")
        self.server_host = urlsplit(self.server).netloc
        self.steps, self.collections = Planner(self.schemas, self.values, declaration).plan()
        if len(self.steps) > MAX_OPERATIONS:
            raise InputError(where, f"has {len(self.steps)} operations; the mock derives from at most {MAX_OPERATIONS}")
        self.credential_fields = tuple(declaration.credentials) if declaration else ()
        components = self.resolve(document.get("components"))
        schemes = self.resolve(components.get("securitySchemes")) if isinstance(components, dict) else None
        self.security_schemes = {k: self.resolve(v) for k, v in schemes.items()} if isinstance(schemes, dict) else {}
        self._patterns: dict[str, re.Pattern[str]] = {}
        self._groups: dict[str, dict[str, str]] = {}
        self._literal: dict[str, list[str]] = {}
        self._by_segments: dict[int, list[str]] = {}
        for template in paths:
            self._by_segments.setdefault(str(template).strip("/").count("/"), []).append(str(template))
        self._skeletons: dict[tuple[str, str, str], Any] = {}
        self._generated: dict[tuple[int, str, float], Any] = {}
        self.objects_made: dict[tuple[int, str, str], dict[str, Any]] = {}  # (seed, collection, id) -> object
        self._validator: Any = None
        self._lock = threading.Lock()

    @classmethod
    def load(cls, spec: Path | str, declaration: Path | Declaration | None = None) -> "SpecMock":
        """The mock of the spec file at ``spec``, with ``declaration`` (a file or a parsed one; default:
        the one :func:`~wapii_core.mock.declaration.find_declaration` finds for it)."""
        from wapii_core.mock.declaration import read_declaration
        from wapii_core.openapi.spec_file import read_spec

        spec = Path(spec)
        document = read_spec(spec)
        if isinstance(declaration, Path):
            declaration = read_declaration(declaration)
        elif declaration is None:
            found = find_declaration(spec, document)
            declaration = found[0] if found else None
        mock = cls(document, spec, declaration)
        mock.spec_path = spec
        return mock

    spec_path: Path | None = None

    @classmethod
    def for_spec(cls, spec: Path | str) -> "SpecMock":
        """:meth:`load` with the declaration found for it, memoised per spec content and declaration
        (:data:`CACHED_MOCKS` per process): what a judge holding many samples of one spec calls."""
        from wapii_core.openapi.parsing import read_document
        from wapii_core.openapi.spec_file import read_spec

        spec = Path(spec)
        document = read_document(spec)
        found = find_declaration(spec, read_spec(spec))
        key = (document.sha256, found[0].model_dump_json() if found else "")
        with _memo_lock:
            mock = _memo.get(key)
        if mock is None:
            mock = cls.load(spec, found[0] if found else None)
            with _memo_lock:
                _memo[key] = mock
                while len(_memo) > CACHED_MOCKS:
                    del _memo[next(iter(_memo))]
        return mock

    def responder(self, seed: int = 0, *, setup: list[dict[str, Any]] | None = None,
                  faults: FaultPlan | dict[str, Any] | None = None, open_world: bool = False) -> SpecResponder:
        """A responder with a fresh store: ``seed`` decides every generated value; ``setup``: request
        configurations (``url``, ``method``, ``headers``, ``params``, ``data``) replayed first, their
        answers not counted by the fault plan; ``faults``: the fault plan; ``open_world``: every
        identifier names an object (generated on first use), even in collections the spec can create in."""
        plan = FaultPlan.model_validate(faults) if isinstance(faults, dict) else faults
        responder = SpecResponder(self, seed, None, open_world)
        for config in setup or []:
            response = responder.answer(config_request(config))
            if response.status >= 400:
                raise InputError(str(config.get("url")), f"setup request answered {response.status}: {response.reason}")
        from wapii_core.mock.faults import FaultState

        responder.faults = FaultState(plan)
        return responder

    # ------------------------------------------------------------------ matching

    def templates_for(self, path: str) -> list[str]:
        """The templates matching ``path`` (relative to the server), fewest placeholders first."""
        segments = path.strip("/").count("/")
        found = [t for t in self._by_segments.get(segments, ()) if self.pattern(t).fullmatch(path)]
        return sorted(found, key=lambda t: (len(_PLACEHOLDER.findall(t)), -len(t)))

    def pattern(self, template: str) -> re.Pattern[str]:
        """The template as a regular expression over a path, each placeholder one segment's text."""
        found = self._patterns.get(template)
        if found is None:
            parts = _PLACEHOLDER.split(template)
            source, names = "", {}
            for i, part in enumerate(parts):
                if i % 2 == 0:
                    source += re.escape(part)
                elif part in names.values():
                    source += "[^/]+"
                else:
                    names[f"g{i}"] = part
                    source += f"(?P<g{i}>[^/]+)"
            found = re.compile(source)
            self._groups[template] = names
            self._patterns[template] = found
        return found

    def path_values(self, template: str, path: str) -> dict[str, str]:
        """The path parameters' values in ``path`` (which the template matches)."""
        from urllib.parse import unquote

        match = self.pattern(template).fullmatch(path)
        if match is None:
            return {}
        return {self._groups[template][g]: unquote(v) for g, v in match.groupdict().items()}

    # ------------------------------------------------------------------ security and validation

    def security_for(self, template: str, method: str) -> Any:
        operation = self.schemas.operation(template, method)
        return operation.get("security") if "security" in operation else self.document.get("security")

    def security_text(self, template: str, method: str) -> str:
        alternatives = self.security_for(template, method) or []
        return " or ".join(" and ".join(a) for a in alternatives if isinstance(a, dict)) or "credentials"

    def challenge(self, template: str, method: str) -> str:
        for alternative in self.security_for(template, method) or []:
            for name in alternative if isinstance(alternative, dict) else ():
                scheme = self.security_schemes.get(name) or {}
                if scheme.get("type") == "http":
                    return str(scheme.get("scheme", "Bearer")).capitalize()
                if scheme.get("type") == "apiKey":
                    return f'ApiKey name="{scheme.get("name")}" in="{scheme.get("in")}"'
        return "Bearer"

    def validate(self, incoming: Incoming, template: str, path_params: dict[str, str]) -> list[str]:
        """wapii's request validation of the request (the judge's validator): each violation as text."""
        if self._validator is None:
            from wapii_core.openapi.request_validation import OperationValidator

            with self._lock:
                if self._validator is None:
                    self._validator = OperationValidator(self.document)
        headers = dict(incoming.headers)
        config: dict[str, Any] = {"url": self.server.rstrip("/") + incoming.path, "method": incoming.method,
                                  "headers": headers, "params": incoming.params(), "path_params": path_params}
        if incoming.data is not None:
            config["data"] = incoming.data
        return [str(v) for v in self._validator.validate(config, template)]

    def declares(self, step: Step, status: int) -> bool:
        return any(r.code == status and r.status.isdigit() for r in step.responses)

_memo: dict[tuple[str, str], SpecMock] = {}
_memo_lock = threading.Lock()


