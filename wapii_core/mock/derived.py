"""What a mock derived from one spec knows and answers by: :class:`DerivedMock`.

Deriving reads the parsed document wapii already holds, plans every operation (:mod:`wapii_core.mock.plan`)
and compiles each path template for matching; it checks credentials and validates requests as the
judge does. The rules of objects (:mod:`~wapii_core.mock.objects`) and of answers
(:mod:`~wapii_core.mock.answers`) are its bases. A leaf below the responder
(:mod:`wapii_core.mock.responder`, which asks it) and :class:`~wapii_core.mock.spec_mock.SpecMock`
(which adds loading a spec and making responders), so neither of those imports the other for its type.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

from wapii_core.base.errors import InputError
from wapii_core.mock.answers import AnswerMaker
from wapii_core.mock.declaration import Declaration, check_against
from wapii_core.mock.incoming import Incoming
from wapii_core.mock.objects import ObjectRules
from wapii_core.mock.plan import Planner, Step
from wapii_core.mock.schemas import SpecSchemas
from wapii_core.mock.values import ValueMaker
from wapii_core.openapi.refs import Resolver

MAX_PATHS = 20_000
"""Path templates a spec may have for the mock to derive from it (GitHub's has about 900)."""
MAX_OPERATIONS = 50_000
_PLACEHOLDER = re.compile(r"{([^{}]+)}")


class DerivedMock(ObjectRules, AnswerMaker):
    """The rules of a mock derived from one OpenAPI description (see the module docstring)."""

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

    spec_path: Path | None = None

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
