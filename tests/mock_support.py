"""What the mock's tests share: the specs they run over, a request per operation, and the check that
an answer is what the spec declares for its status (docs/mock.md, "Answers")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from support import LARGE_SPEC, REPO, SHARED

DEMO = REPO / "specs" / "demo" / "specs" / "larchwood.yaml"
WAPIIBENCH = {name: SHARED / "wapiibench" / "specs" / f"{name}.yaml"
              for name in ("asana", "google_calendar_v3", "google_sheet_v4", "slack")}
GITHUB = LARGE_SPEC


def requests_by_operation(spec: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """``datasets scaffold``'s request for every get/post/put/patch/delete operation of ``spec``
    (the expected request of a template task: every required argument, values from the schema),
    with whether its own check flagged it (``checks`` != OK: an invalid request by the spec)."""
    from wapii_core.datasets.scaffold import scaffold_samples
    from wapii_core.mock.spec_mock import SpecMock
    from wapii_core.openapi.index import SpecIndex
    from wapii_core.openapi.operations import OPERATION_METHODS

    mock, index = SpecMock.load(spec), SpecIndex.load(spec)
    samples, _ = scaffold_samples(spec, "x")
    operations = [(template, method) for template in index.templates for method in OPERATION_METHODS
                  if method in index.methods(template) and method in ("get", "post", "put", "patch", "delete")]
    assert len(operations) == len(samples)
    out = {}
    for operation, sample in zip(operations, samples):
        config = sample["config"]
        path = urlsplit(config["url"]).path[len(mock.server_path):]
        routed = next(t for t in mock.templates_for(path) if (t, config["method"]) in mock.steps)
        out[operation] = {**config, "flagged": sample["checks"] != "OK", "routed": routed}
    return out


def answer_problem(mock: Any, step: Any, status: int, body: bytes) -> str | None:
    """Why an answer is not what the spec declares for ``status`` (None: it is).

    The schema is the response declared for the status (``NXX``, then ``default`` where the exact
    status is not declared); a declaration's ``not_found`` answer follows the ``default`` (error)
    response; a ``204`` and a redirect carry no body; an undeclared error status without a
    ``default`` carries the mock's own ``{"error": {"status", "message"}}``.
    """
    value = json.loads(body) if body else None
    declared = [r for r in step.responses if r.code == status and r.status.isdigit()] or \
        [r for r in step.responses if r.code == status // 100 * 100 and not r.status.isdigit()] or \
        [r for r in step.responses if r.status == "default"]
    if step.not_found is not None and value == step.not_found.body:
        declared = [r for r in step.responses if r.status == "default"]
    if status == 204 or 300 <= status < 400:
        return None if not body else f"a {status} with a body"
    if not declared:
        if status < 400:
            return f"status {status} is not declared"
        error = value.get("error") if isinstance(value, dict) else None
        ok = isinstance(error, dict) and error.get("status") == status and isinstance(error.get("message"), str)
        return None if ok else f"an undeclared {status} without the mock's error shape: {body[:200]!r}"
    if declared[0].schema is None:
        return None
    errors = mock.schemas.errors(declared[0].schema, value)
    return "; ".join(errors) if errors else None
