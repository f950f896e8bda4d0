"""One sample's responder: answers requests from the spec's plan, keeping objects in its own store.

A request is answered in this order (docs/mock.md, "Faults"):

1. a path no template matches: ``404``; a path whose templates lack the method: ``405`` with ``Allow``;
2. a body its Content-Type cannot decode or longer than the mock reads: ``400`` / ``413``;
3. no credential for the operation's security requirement: ``401`` with ``WWW-Authenticate``;
4. the fault plan's rule for the request, if one fires: its status (``Retry-After`` on 429 / 503);
5. what wapii's request validation finds against the operation (the judge's validator): ``400``
   (``422`` where the operation declares 422 and not 400) naming each violation;
6. an identifier the store does not hold in a closed collection, on the path or in its scope: ``404``;
7. the operation's action (:mod:`wapii_core.mock.plan`), answered with its success status.

A fault's body is the operation's declared schema for that status, generated, with the message
in its ``message`` / ``error`` / ``detail`` string property where it has one; where the status
is not declared, ``{"error": {"status": N, "message": "..."}}``.
"""

from __future__ import annotations

import copy
import json
import pickle
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from wapii_core.mock.answers import NO_BODY
from wapii_core.mock.exchange import MockRequest, MockResponse
from wapii_core.mock.faults import FaultPlan, FaultState
from wapii_core.mock.incoming import BadBody, Incoming, credentials_present, read_request
from wapii_core.mock.plan import Collection, Step, WRAPPERS, _singular
from wapii_core.mock.schemas import DeclaredResponse
from wapii_core.mock.store import Store, StoreFull
from wapii_core.mock.values import seeded_rng

if TYPE_CHECKING:
    from wapii_core.mock.derived import DerivedMock

DEFAULT_PAGE = 50
MAX_PAGE = 1000
_REASONS = {200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 400: "Bad Request", 401: "Unauthorized",
            404: "Not Found", 405: "Method Not Allowed", 413: "Content Too Large", 422: "Unprocessable Content",
            429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
            503: "Service Unavailable", 504: "Gateway Timeout", 507: "Insufficient Storage"}


def json_copy(value: Any) -> Any:
    """A deep copy of plain data (a store, a JSON-able object), several times faster than ``copy.deepcopy``."""
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


MADE_OBJECTS = 4096
"""Generated objects a mock keeps for its responders to copy (a workflow's programs make the same ones)."""


class SpecResponder:
    """Answers one sample's requests (:class:`~wapii_core.mock.exchange.Responder`); build it with
    :meth:`SpecMock.responder`. Not thread-safe by itself (the HTTP server serialises requests)."""

    def __init__(self, mock: "DerivedMock", seed: int, faults: FaultPlan | None, open_world: bool = False) -> None:
        self.mock = mock
        self.seed = seed
        self.open_world = open_world
        self.store = Store()
        self.faults = FaultState(faults)
        self.answered = 0

    def state(self, copied: bool = True) -> dict[str, Any]:
        """The store's snapshot (:meth:`Store.state`): what the program made, JSON-able."""
        return self.store.state(copied)

    def fork(self, faults: FaultPlan | None = None) -> "SpecResponder":
        """A responder whose store starts as a copy of this one's (what a setup made, replayed once
        for many programs), with ``faults`` armed from the start; nothing is shared afterwards."""
        twin = SpecResponder(self.mock, self.seed, faults, self.open_world)
        twin.store = json_copy(self.store)
        return twin

    # ------------------------------------------------------------------ answering

    def answer(self, request: MockRequest) -> MockResponse:
        """The answer to ``request`` (see the module docstring); never raises: a request the mock
        itself cannot handle is a ``500`` naming the problem, and the program goes on."""
        self.answered += 1
        try:
            return self._answer(request)
        except Exception as exc:  # noqa: BLE001 - a judged program's request never stops the supervisor
            from wapii_core.base.text import exception_line

            return _json(500, {"error": {"status": 500, "message": f"the mock failed: {exception_line(exc, 300)}"}},
                         (), f"500: the mock failed: {exception_line(exc, 300)}")

    def _answer(self, request: MockRequest) -> MockResponse:
        mock = self.mock
        try:
            incoming = read_request(request, mock.server_path, mock.server_host)
        except BadBody as exc:
            status = 413 if "at most" in str(exc) else 400
            return self._error(None, status, str(exc))
        templates = mock.templates_for(incoming.path)
        if not templates:
            return self._error(None, 404, f"no operation at {incoming.path.lstrip(chr(0))}")
        template = next((t for t in templates if (t, incoming.method) in mock.steps), None)
        if template is None and incoming.method == "head":  # HEAD where only GET is declared: GET's answer, no body
            incoming.method = "get"
            answer = self._answer_get_for_head(templates, incoming)
            if answer is not None:
                return answer
            incoming.method = "head"
        if template is None:
            allowed = sorted({m.upper() for t in templates for (tt, m) in mock.steps if tt == t})
            return self._error(None, 405, f"{incoming.method.upper()} is not allowed at {templates[0]}",
                               (("Allow", ", ".join(allowed)),))
        return self._step_answer(mock.steps[(template, incoming.method)], template, incoming)

    def _step_answer(self, step: Step, template: str, incoming: Incoming) -> MockResponse:
        mock = self.mock
        if not credentials_present(mock.security_for(template, incoming.method), mock.security_schemes, incoming,
                                   mock.credential_fields):
            return self._error(step, 401, "missing credentials: the operation requires "
                                          + mock.security_text(template, incoming.method),
                               (("WWW-Authenticate", mock.challenge(template, incoming.method)),))
        rule = self.faults.fault(f"{incoming.method.upper()} {template}")
        if rule is not None:
            headers = (("Retry-After", str(rule.retry_after)),) if rule.status in (429, 503) else ()
            return self._error(step, rule.status, "injected by the fault plan", headers)
        values = mock.path_values(template, incoming.path)
        violations = mock.validate(incoming, template, values)
        if violations:
            status = 422 if mock.declares(step, 422) and not mock.declares(step, 400) else 400
            return self._error(step, status, "; ".join(violations), extra={"violations": violations})
        try:
            return self._act(step, incoming, values)
        except StoreFull as exc:
            return self._error(step, 507, f"the store is full: {exc}")

    def _answer_get_for_head(self, templates: list[str], incoming: Incoming) -> MockResponse | None:
        template = next((t for t in templates if (t, "get") in self.mock.steps), None)
        if template is None:
            return None
        answer = self._step_answer(self.mock.steps[(template, "get")], template, incoming)
        return MockResponse(answer.status, answer.headers, b"", reason=answer.reason)

    def _act(self, step: Step, incoming: Incoming, values: dict[str, str]) -> MockResponse:
        links: dict[str, str] = {}
        for parent, names in step.scope:
            identifier = "/".join(values.get(n, "") for n in names)
            if self._find(parent, identifier) is None:
                return self._not_found(step, parent, identifier)
            links[parent] = identifier
        for parent, name in step.under.items():
            value = incoming.value(name)
            if isinstance(value, (str, int)) and str(value):
                if self._find(parent, str(value)) is None:
                    return self._not_found(step, parent, str(value))
                links[parent] = str(value)
            elif step.not_found is not None:  # the parent is not named: as the API answers an unknown one
                return self._not_found(step, parent, "")
        action = step.action
        if action == "create":
            return self._create(step, incoming, links)
        if action == "list":
            return self._list(step, incoming, links)
        if action == "other":
            return self._respond(step, self._skeleton(step, step.success, f"other:{step.template}"))
        identifier = self._identifier(step, incoming, values)
        if identifier is None:
            if step.not_found is not None:
                return self._not_found(step, step.collection or "", "")
            return self._error(step, 400, f"no identifier of a {_singular(step.collection or '')} in the request")
        collection = step.collection or ""
        record = self._find(collection, identifier)
        if record is None:
            return self._not_found(step, collection, identifier)
        if action == "read":
            return self._object_answer(step, collection, identifier, record.object)
        if action == "delete":
            self.store.delete(collection, identifier)
            return self._respond(step, self._skeleton(step, step.success, f"delete:{collection}", empty=True))
        fields = self._body_fields(step, incoming)
        updated = self.mock.overlay(self.mock.collections[collection], copy.deepcopy(record.object), fields, identifier)
        self.store.put(collection, identifier, updated)
        return self._object_answer(step, collection, identifier, updated, incoming)

    # ------------------------------------------------------------------ actions

    def _create(self, step: Step, incoming: Incoming, links: dict[str, str]) -> MockResponse:
        collection = self.mock.collections[step.collection or ""]
        number = self.store.next_number(collection.name)
        identifier = self.mock.new_identifier(collection, self.seed, number, self.store)
        parents = {}
        for parent, parent_id in links.items():  # the object names what it was created under
            one = _singular(parent)
            parents.update({key: parent_id for key in (one, f"{one}_id", f"{one}Id", f"{one}_gid")})
        obj = self.mock.overlay(collection, self._generated(collection.name, identifier),
                                {**parents, **self._body_fields(step, incoming)}, identifier)
        self.store.put(collection.name, identifier, obj, links)
        response = self._object_answer(step, collection.name, identifier, obj, incoming)
        return response

    def _list(self, step: Step, incoming: Incoming, links: dict[str, str]) -> MockResponse:
        collection = step.collection or ""
        found = []
        params = incoming.params()
        paging = step.pagination
        skip = {paging.limit, paging.offset} if paging else set()
        known = self.mock.collections[collection]
        shown = not known.closed or self.open_world  # objects materialised in an open collection are listed
        wanted = self.mock.minimum_items(step)
        if shown and wanted and not links:
            for number in range(len(self.store.items(collection)), wanted):  # a list the spec says is never empty
                self._find(collection, self.mock.new_identifier(known, self.seed, 10_000 + number, self.store))
        for identifier, record in self.store.items(collection):
            if record.materialised and not shown:
                continue
            if all(self.mock.belongs(record, parent, parent_id) for parent, parent_id in links.items()) and all(
                    self.mock.matches(record.object, name, value) for name, value in params.items() if name not in skip):
                found.append((identifier, record.object))
        start, size = 0, len(found)
        next_token: str | None = None
        if paging is not None:
            size = _integer(params.get(paging.limit) if paging.limit else None, DEFAULT_PAGE)
            size = max(1, min(size, MAX_PAGE))
            given = params.get(paging.offset) if paging.offset else None
            if paging.offset_kind == "page":
                start = (max(_integer(given, 1), 1) - 1) * size
            else:
                start = max(_integer(given, 0), 0)
            if start + size < len(found):
                next_token = str((start + size) // size + 1) if paging.offset_kind == "page" else str(start + size)
        page = found[start:start + size]
        body = self._skeleton(step, step.success, f"list:{collection}")
        item_schema = self.mock.items_schema(step)
        objects = [self.mock.shaped(self.mock.collections[collection], item_schema, obj, identifier, self.seed)
                   for identifier, obj in page]
        body = _put_at(body, step.wrapper or (), objects)
        headers: tuple[tuple[str, str], ...] = ()
        if paging is not None:
            body = self.mock.page_fields(step, body, next_token, len(found), paging)
            if next_token is not None and paging.offset:
                query = [(k, v) for k, v in incoming.query if k != paging.offset] + [(paging.offset, next_token)]
                headers = (("Link", f'<{incoming.base}{incoming.path}?{urlencode(query)}>; rel="next"'),)
        return self._respond(step, body, headers)

    def _object_answer(self, step: Step, collection: str, identifier: str, obj: dict[str, Any],
                       incoming: Incoming | None = None) -> MockResponse:
        body = self._skeleton(step, step.success, f"{step.action}:{collection}")
        schema, as_list = self.mock.answer_schema(step)
        shaped: Any = self.mock.shaped(self.mock.collections[collection], schema, obj, identifier, self.seed)
        if as_list:
            shaped = [shaped]
        body = _put_at(body, step.wrapper or (), shaped)
        if incoming is not None and step.wrapper and isinstance(body, dict) and step.success is not None:
            body = self.mock.echo_envelope(step, body, incoming, obj, self.mock.collections[collection])
        return self._respond(step, body)

    # ------------------------------------------------------------------ helpers

    def _not_found(self, step: Step, collection: str, identifier: str) -> MockResponse:
        message = f"no {_singular(collection)} {identifier!r}"
        if step.not_found is not None:
            return _json(step.not_found.status, step.not_found.body, (), message)
        return self._error(step, 404, message)

    def _find(self, collection: str, identifier: str) -> Any:
        """The record, materialised in an open collection on first use; None where it does not exist."""
        record = self.store.get(collection, identifier)
        if record is not None:
            return record
        found = self.mock.collections.get(collection)
        if found is None or not identifier or self.store.deleted(collection, identifier):
            return None
        if found.closed and not self.open_world:
            return None
        obj = self.mock.overlay(found, self._generated(collection, identifier), {}, identifier)
        return self.store.put(collection, identifier, obj, materialised=True)

    def generated(self, collection: str, identifier: str) -> dict[str, Any]:
        """The object this responder makes for ``identifier`` before any request's fields are laid
        over it (how a workflow's end state tells what the requests gave an object; not to be changed)."""
        return self._generated(collection, identifier, copied=False) if collection in self.mock.collections else {}

    def _generated(self, collection: str, identifier: str, copied: bool = True) -> dict[str, Any]:
        found = self.mock.collections[collection]
        if found.object_schema is None:
            return {}
        made = self.mock.objects_made
        key = (self.seed, collection, identifier)
        value = made.get(key)
        if value is None:  # the same seed and identifier make the same object: made once per mock
            value = self.mock.generate(found.object_schema, seeded_rng(self.seed, "object", collection, identifier))
            value = value if isinstance(value, dict) else {}
            if len(made) >= MADE_OBJECTS:
                made.clear()
            made[key] = value
        return json_copy(value) if copied else value

    def _identifier(self, step: Step, incoming: Incoming, values: dict[str, str]) -> str | None:
        if step.id_request_field:
            value = incoming.value(step.id_request_field)
            return str(value) if isinstance(value, (str, int)) and str(value) else None
        if not step.id_params:
            return None
        return "/".join(values.get(n, "") for n in step.id_params)

    def _body_fields(self, step: Step, incoming: Incoming) -> dict[str, Any]:
        data = incoming.data
        if isinstance(data, dict) and len(data) == 1:
            (key, inner), = data.items()
            if isinstance(inner, dict) and (key in WRAPPERS or key == _singular(step.collection or "")):
                data = inner
        return dict(data) if isinstance(data, dict) else {}

    def _skeleton(self, step: Step, response: DeclaredResponse | None, key: str, empty: bool = False) -> Any:
        return self.mock.skeleton(step, response, seeded_rng(self.seed, "answer", key, self.answered), empty)

    def _respond(self, step: Step, body: Any, headers: tuple[tuple[str, str], ...] = ()) -> MockResponse:
        status = self.mock.success_status(step)
        if body is NO_BODY or status == 204 or 300 <= status < 400:
            return MockResponse(status, headers, b"", reason=f"{step.action} {step.collection or step.template}")
        return _json(status, body, headers, f"{step.action} {step.collection or step.template}")

    def _error(self, step: Step | None, status: int, message: str,
               headers: tuple[tuple[str, str], ...] = (), extra: dict[str, Any] | None = None) -> MockResponse:
        body = self.mock.error_body(step, status, message, seeded_rng(self.seed, "error", status, self.answered), extra)
        return _json(status, body, headers, f"{status}: {message}"[:300])


def _json(status: int, body: Any, headers: tuple[tuple[str, str], ...], reason: str) -> MockResponse:
    data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return MockResponse(status, (("Content-Type", "application/json"), *headers), data, reason=reason)


def _integer(value: Any, default: int) -> int:
    if isinstance(value, list):
        value = value[0] if value else None
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return default


def _put_at(body: Any, keys: tuple[str, ...], value: Any) -> Any:
    if not keys:
        return value
    body = body if isinstance(body, dict) else {}
    node = body
    for key in keys[:-1]:
        child = node.get(key)
        if not isinstance(child, dict):
            child = node[key] = {}
        node = child
    node[keys[-1]] = value
    return body


def status_reason(status: int) -> str:
    """The reason phrase the HTTP server sends with ``status``."""
    return _REASONS.get(status, "")


__all__ = ["SpecResponder", "Collection", "status_reason"]
