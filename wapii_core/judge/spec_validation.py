"""The ``spec_validation`` metric provider: captured requests validated against the spec's schemas.

The paper's verdicts judge argument *names* (declared or not) and compare values with the expected
ones; they never ask whether a value is valid for its schema. This provider validates every
executed sample's captured request (``SampleResult.request``) as openapi-core validates it
(:mod:`wapii_core.openapi.request_validation`) against the operation it addresses — its first candidate path
that defines its method (a request with none is already an illegal URL or method by name and is
not validated) — and reports how many validated requests carry each kind of violation: a wrong
type, a bad enum value, a missing required parameter / body / body property, or another schema
rule (format, range, read-only, ...); and how many sent a body with a Content-Type the operation
does not declare. No request stops a run: one whose fields have the wrong shape or hold values
that cannot be validated counts as validated, with a violation that says so.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from typing import Any, Iterable

from wapii_core.base.metric_kinds import Metric
from wapii_core.base.model import SampleResult
from wapii_core.base.text import exception_line
from wapii_core.openapi.violations import KINDS, Violation
from wapii_core.base.protocols import Dataset

KIND_ROWS = {"type": "Wrong types (v)", "enum": "Bad enum values (v)",
             "missing_required": "Missing required arguments (v)", "other": "Other schema violations (v)"}
MAX_MESSAGES = 5
"""Violation messages kept per sample (in ``violations``)."""


class _Tally:
    """Counts of one scope (the whole run, or one API)."""

    def __init__(self) -> None:
        self.executed = 0
        self.validated = 0
        self.with_violation = 0
        self.with_kind: Counter[str] = Counter()
        self.violations: Counter[str] = Counter()
        self.bodies = 0
        self.undeclared_content_type = 0
        self.correct_with_violation = 0

    def as_dict(self) -> dict[str, Any]:
        def rate(count: int, base: int) -> float | None:
            return count / base if base else None

        out: dict[str, Any] = {"Executed requests": self.executed, "Validated requests": self.validated,
                               "Requests with schema violations (v)": rate(self.with_violation, self.validated)}
        out.update({KIND_ROWS[k]: rate(self.with_kind[k], self.validated) for k in KINDS})
        out["Undeclared content type (b)"] = rate(self.undeclared_content_type, self.bodies)
        out["Correct implementations with schema violations"] = self.correct_with_violation
        out["Violations"] = {k: self.violations[k] for k in KINDS}
        return out


def _operation_template(spec: Any, request: dict[str, Any], strict: bool) -> str | None:
    """The first candidate path of the request's URL that defines its method."""
    method = str(request.get("method", "")).lower()
    for template in spec.candidates(request.get("url"), strict=strict):
        if spec.has_method(template, method):
            return template
    return None


class SpecValidation:
    """Metric provider: schema violations of captured requests (see the module docstring)."""

    values = {
        "Executed requests": Metric("count", "samples whose call ran and issued a request"),
        "Validated requests": Metric("count", "executed requests whose URL and method address an operation of the "
                                              "spec (the base (v) of the rates below)"),
        "Requests with schema violations (v)": Metric("rate", "share of validated requests with at least one "
                                                              "schema violation"),
        KIND_ROWS["type"]: Metric("rate", "share of validated requests with a value of the wrong type (or not "
                                          "castable to it)"),
        KIND_ROWS["enum"]: Metric("rate", "share of validated requests with a value outside its enum"),
        KIND_ROWS["missing_required"]: Metric("rate", "share of validated requests lacking a required parameter, "
                                                      "body or body property"),
        KIND_ROWS["other"]: Metric("rate", "share of validated requests breaking another schema rule (format, "
                                           "range, read-only...)"),
        "Undeclared content type (b)": Metric("rate", "share of validated requests with a body whose Content-Type "
                                                      "is not a media type the operation declares (b: requests with "
                                                      "a body to an operation that declares one)"),
        "Correct implementations with schema violations": Metric("count", "samples judged correct whose request "
                                                                          "still violates the spec (the expected "
                                                                          "request does too)"),
        "Violations.*": Metric("count", "number of violations of that kind over all validated requests"),
    }
    """What ``aggregate`` returns (``violations`` also holds up to five messages per sample and draw that has any)."""

    def aggregate(self, results: Iterable[SampleResult], dataset: Dataset) -> dict[str, Any]:
        """Overall rates and counts, ``per_api`` and the ``violations`` messages."""
        from wapii_core.openapi.request_validation import OperationValidator
        from wapii_core.openapi.index import SpecIndex

        specs: dict[str, Any] = {}
        validators: dict[str, Any] = {}
        overall, per_api = _Tally(), defaultdict(_Tally)
        messages: dict[str, list[str]] = {}
        memo: dict[str, dict[str, Any] | None] = {}  # draws often repeat a request: validate it once
        for result in results:
            if result.request is None or result.api not in dataset.specs:
                continue
            if result.api not in specs:
                specs[result.api] = SpecIndex.load(dataset.specs[result.api])
                validators[result.api] = OperationValidator.for_spec(dataset.specs[result.api])
            key = _memo_key(result)
            if key is None or key not in memo:
                found = validate_result(result, specs[result.api], validators[result.api])
                if key is not None:
                    memo[key] = found
            else:
                found = memo[key]
            for tally in (overall, per_api[result.api]):
                _count(tally, result, found)
            if found and found["violations"]:
                messages[result.key] = [str(v) for v in found["violations"][:MAX_MESSAGES]]
        summary = overall.as_dict()
        summary["per_api"] = {api: tally.as_dict() for api, tally in sorted(per_api.items())}
        summary["violations"] = messages
        return summary


def _memo_key(result: SampleResult) -> str | None:
    """What makes two draws' validations equal (None: a request too odd to serialise, validated each time)."""
    try:
        return json.dumps([result.api, result.mode, result.request], sort_keys=True, default=str)
    except (TypeError, ValueError, RecursionError):
        return None


def validate_result(result: SampleResult, spec: Any, validator: Any) -> dict[str, Any] | None:
    """``{"violations": [...], "content_type_declared": bool | None}``, or None when not validated.

    Never raises: a request that cannot be validated at all counts as validated with one ``other``
    violation saying why (whatever JSON values its fields hold).
    """
    request = dict(result.request or {})
    strict = result.mode == "strict"
    try:
        template = _operation_template(spec, request, strict=strict)
        if template is None:
            return None
        request.setdefault("path_params", spec.path_params(request.get("url"), strict=strict))
        return {"violations": validator.validate(request, template),
                "content_type_declared": validator.content_type_declared(request, template)}
    except Exception as exc:  # noqa: BLE001 - one odd request must not make a run unscorable
        return {"violations": [Violation("other", "request", f"could not be validated: {exception_line(exc, 300)}")],
                "content_type_declared": None}


def _count(tally: _Tally, result: SampleResult, found: dict[str, Any] | None) -> None:
    tally.executed += 1
    if found is None:
        return
    tally.validated += 1
    kinds = {v.kind for v in found["violations"]}
    tally.with_violation += bool(kinds)
    tally.with_kind.update(kinds)
    tally.violations.update(v.kind for v in found["violations"])
    if found["content_type_declared"] is not None:
        tally.bodies += 1
        tally.undeclared_content_type += not found["content_type_declared"]
    tally.correct_with_violation += bool(kinds) and result.verdict == "correct"
