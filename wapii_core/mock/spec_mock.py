"""The mock derived from one spec: built once (:meth:`SpecMock.load`), a fresh responder per sample.

The rules it answers by live beside it: :mod:`~wapii_core.mock.derived` (matching, security,
validation), :mod:`~wapii_core.mock.objects` (identifiers, what requests change, list membership) and
:mod:`~wapii_core.mock.answers` (bodies, paging, faults).

Deriving reads the parsed document wapii already holds (:func:`~wapii_core.openapi.spec_file.read_spec`:
OpenAPI 3, Swagger 2 through its conversion), plans every operation (:mod:`wapii_core.mock.plan`)
and compiles each path template for matching; answers (examples checked, schemas generated) are
made lazily, per operation, when first asked for. :meth:`SpecMock.responder` gives a
:class:`~wapii_core.mock.responder.SpecResponder` with an empty store of its own.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from wapii_core.base.errors import InputError
from wapii_core.mock.configs import config_request
from wapii_core.mock.declaration import Declaration, find_declaration
from wapii_core.mock.derived import MAX_OPERATIONS, MAX_PATHS, DerivedMock
from wapii_core.mock.faults import FaultPlan
from wapii_core.mock.responder import SpecResponder

__all__ = ["CACHED_MOCKS", "MAX_OPERATIONS", "MAX_PATHS", "SpecMock", "config_request"]

CACHED_MOCKS = 8
"""Derived mocks :meth:`SpecMock.for_spec` keeps per process."""


class SpecMock(DerivedMock):
    """A stateful mock derived from one OpenAPI description (see the module docstring)."""

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


_memo: dict[tuple[str, str], SpecMock] = {}
_memo_lock = threading.Lock()
