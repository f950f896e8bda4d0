"""A dataset's declaration of what operations do to the mock's store, where the path cannot say.

RPC-style APIs (Slack's ``POST /chat.postMessage``, ``GET /conversations.list``) name an action,
not a resource, in their paths; the mock's inference (:mod:`wapii_core.mock.plan`) leaves such
operations stateless. A declaration says, per operation, what it does to which collection. It is a
JSON file, ``mock/<api>.json`` in a dataset directory (``specs/<api>.yaml`` beside it), or given
to :class:`~wapii_core.mock.SpecMock` directly::

    {"title": "Slack Web API",
     "operations": {
       "POST /conversations.create": {"action": "create", "collection": "conversations", "wrapper": "channel"},
       "GET /conversations.info":    {"action": "read", "collection": "conversations", "id": "channel",
                                      "wrapper": "channel"},
       "POST /chat.postMessage":     {"action": "create", "collection": "messages", "wrapper": "message",
                                      "id_field": "ts", "under": {"conversations": "channel"}}}}

- ``action``: ``create``, ``read``, ``update``, ``delete``, ``list`` or ``other`` (stateless);
- ``collection``: the store's collection it acts on (any name; the same name in several operations
  is the same collection);
- ``id``: the request field (query parameter, header or body property) that carries the
  identifier of the object read, updated or deleted (default: the path's last parameters);
- ``id_field``: the object's property holding its identifier (default: inferred from the schema);
- ``wrapper``: where the object (or a list's array) sits in the response body, dot-separated keys
  (``""``: the body itself; default: inferred);
- ``under``: parent collection -> the request field naming the parent, for objects that belong to
  another (a message in a channel): the parent must exist, a create records the link, a list keeps
  only the parent's objects;
- ``not_found``: ``{"status": 200, "body": {"ok": false, "error": "channel_not_found"}}``, the answer
  where an identifier is unknown (default: a ``404`` as for every other operation).

``credentials``: request fields that carry a credential besides the spec's security schemes (Slack
accepts its ``token`` as a form or query field): a request with one meets any security requirement.
``title``, when given, must equal the spec's ``info.title``: a declaration shipped with wapii for a
WAPIIBench API (``wapii_core/mock/declarations/``) is applied only to that API's description.
Every operation named must exist in the spec; anything else is a one-line error naming the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

from wapii_core.base.errors import InputError
from wapii_core.base.json_files import read_json_model

BUNDLED = Path(__file__).resolve().parent / "declarations"
"""Declarations wapii ships for the WAPIIBench APIs, ``<api>.json``."""

Action = Literal["create", "read", "update", "delete", "list", "other"]


class NotFound(BaseModel):
    """How the API answers an identifier it does not know (Slack: ``200`` with ``{"ok": false, ...}``)."""

    model_config = ConfigDict(extra="forbid")

    status: int = Field(404, ge=200, le=599)
    body: Any = None


class DeclaredOperation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: Action
    collection: Optional[str] = None
    id: Optional[str] = None
    id_field: Optional[str] = None
    wrapper: Optional[str] = None
    under: dict[str, str] = {}
    not_found: Optional[NotFound] = None


class Declaration(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: Optional[str] = None
    credentials: list[str] = []
    operations: dict[str, DeclaredOperation] = {}

    def get(self, template: str, method: str) -> DeclaredOperation | None:
        return self.operations.get(f"{method.upper()} {template}")


def read_declaration(path: Path) -> Declaration:
    """The declaration in the JSON file at ``path`` (InputError naming it when malformed)."""
    declaration = read_json_model(path, Declaration, "mock declaration")
    for key, operation in declaration.operations.items():
        if operation.action != "other" and not operation.collection:
            raise InputError(path, f"mock declaration: operation {key!r} ({operation.action}) names no collection")
    return declaration


def check_against(declaration: Declaration, where: Path | str, document: dict[str, Any]) -> None:
    """Raise InputError unless every operation the declaration names exists in ``document``."""
    paths = document.get("paths") or {}
    for key in declaration.operations:
        method, _, template = key.partition(" ")
        item = paths.get(template)
        if not isinstance(item, dict) or method.lower() not in item:
            raise InputError(where, f"mock declaration: the spec has no operation {key!r}")


def find_declaration(spec: Path, document: dict[str, Any]) -> tuple[Declaration, Path] | None:
    """The declaration that applies to the spec at ``spec``: ``<dataset>/mock/<api>.json`` beside its
    ``specs/`` directory, else a bundled one whose ``title`` is the spec's (None: neither)."""
    spec = Path(spec)
    local = spec.parent.parent / "mock" / f"{spec.stem}.json"
    if spec.parent.name == "specs" and local.is_file():
        return read_declaration(local), local
    bundled = BUNDLED / f"{spec.stem}.json"
    if bundled.is_file():
        declaration = read_declaration(bundled)
        title = (document.get("info") or {}).get("title") if isinstance(document.get("info"), dict) else None
        if declaration.title is not None and declaration.title == title:
            return declaration, bundled
    return None
