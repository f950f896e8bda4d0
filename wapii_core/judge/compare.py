"""Per-sample comparison of a captured request with the expected one (docs: metrics.md §4-6).

:func:`judge` gives every verdict of one sample; :func:`sample_counts` turns a judged sample into
the argument counts and per-sample ratios that every aggregate is built from. Both mirror the
published WAPIIBench evaluation exactly, including these quirks:

- values compare with Python's ``==`` on JSON values (``1 == 1.0 == True``);
- argument names compare case-sensitively, headers included;
- an unexpected argument is judged against the *expected* endpoint (path and method);
- a field whose value is ``None`` in the captured request is ignored;
- the special headers (``Accept``, ``Content-Type``) get a verdict but never count;
- a non-executable sample counts all its expected arguments as expected and missing, with zero
  entries for fields that hold only special headers (they still count as "having the field").

One deliberate difference, where the reference would crash: a captured field that is not an
object (and not ``None``) is judged as holding no arguments.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wapii_core.base.model import ERROR_KINDS, FIELDS, SPECIAL_HEADERS, Sample, SampleResult
from wapii_core.openapi.index import SpecIndex

VERDICTS = ("correct", "incorrect_value", "missing", "unnecessary", "illegal")
"""The verdicts an argument can get."""


def _is_special(field_name: str, name: str) -> bool:
    return field_name == "headers" and name in SPECIAL_HEADERS


def _with_path_params(config: dict[str, Any], spec: SpecIndex, strict: bool) -> tuple[dict[str, Any], list[str]]:
    """A shallow copy of ``config`` with ``path_params`` added (when its URL has any) and its candidates."""
    url = config.get("url")
    candidates = spec.candidates(url, strict) if isinstance(url, str) else []
    out = dict(config)
    if candidates:
        params = spec.path_params(url, strict)
        if params:
            out["path_params"] = params
    return out, candidates


def expected_argument_counts(expected: dict[str, Any]) -> dict[str, int]:
    """Counted (non-special) arguments of each field the expected config has, path_params included."""
    counts: dict[str, int] = {}
    for name in FIELDS:
        value = expected.get(name)
        if name in expected and isinstance(value, dict):
            counts[name] = sum(1 for key in value if not _is_special(name, key))
    return counts


def judge(
    sample: Sample,
    spec: SpecIndex,
    request: dict[str, Any] | None,
    error: str | None = None,
    *,
    call: str | None = None,
    error_detail: str | None = None,
    draw: int = 0,
    strict: bool = False,
    journal: bool = False,
) -> SampleResult:
    """Judge one captured request (already normalised, metrics.md §3) against ``sample``.

    ``request`` is None when the call did not run; ``error`` then says why (one of
    :data:`~wapii_core.base.model.ERROR_KINDS`, ``no_request`` when not given) and the sample is
    ``nonexecutable``. ``strict`` selects strict URL matching (literal characters matched
    literally) instead of the reference's; ``journal`` the journal edition's value rule (outside the
    body a one-element list equals its element, :func:`values_equal`). Neither ``sample.config`` nor ``request`` is modified.
    """
    expected, expected_paths = _with_path_params(sample.config, spec, strict)
    base = dict(
        sample=sample.id, draw=draw, api=sample.api, call=call, error_detail=error_detail,
        expected_arguments=expected_argument_counts(expected), mode="strict" if strict else "reference",
    )
    if request is None:
        kind = error or "no_request"
        if kind not in ERROR_KINDS:
            raise ValueError(f"unknown error kind {kind!r}; expected one of {', '.join(ERROR_KINDS)}")
        return SampleResult(**base, error=kind, verdict="nonexecutable")

    actual, actual_paths = _with_path_params(request, spec, strict)
    expected_path = expected_paths[0] if expected_paths else None
    expected_method = expected.get("method")
    actual_method = actual.get("method")

    if expected_path is not None and expected_path in actual_paths:
        url = "correct"
    elif not actual_paths:
        url = "illegal"
    else:
        url = "wrong"

    if expected_method == actual_method:
        method = "correct"
    elif not any(spec.has_method(path, actual_method) for path in actual_paths):
        method = "illegal"
    else:
        method = "wrong"

    if url == "correct" and method == "correct":
        endpoint = "correct"
    elif "illegal" in (url, method):
        endpoint = "illegal"
    else:
        endpoint = "wrong"

    arguments = _argument_verdicts(expected, actual, spec, expected_method, expected_path, journal)
    resolved = f"{str(actual_method).upper()} {actual_paths[0]}" if actual_paths else None
    result = SampleResult(
        **base, verdict="wrong", url=url, method=method, endpoint=endpoint, arguments=arguments, request=request,
        resolved_endpoint=resolved,
    )
    counts = sample_counts(result)
    if endpoint == "correct" and counts.correct_value.get("all", 0) == counts.all.get("all", 0):
        result.verdict = "correct"
    elif endpoint == "illegal" or counts.illegal.get("all", 0) > 0:
        result.verdict = "illegal"
    return result


def values_equal(sent: Any, wanted: Any, field_name: str, journal: bool) -> bool:
    """The reference's ``==``; in the journal edition, outside the body (``data``) a list of one
    element also equals that element, either way round."""
    if sent == wanted:
        return True
    if not journal or field_name == "data":
        return False
    if isinstance(sent, list) and len(sent) == 1 and not isinstance(wanted, list):
        return bool(sent[0] == wanted)
    if isinstance(wanted, list) and len(wanted) == 1 and not isinstance(sent, list):
        return bool(wanted[0] == sent)
    return False


def _argument_verdicts(
    expected: dict[str, Any], actual: dict[str, Any], spec: SpecIndex, expected_method: Any, expected_path: str | None,
    journal: bool = False,
) -> dict[str, dict[str, str]]:
    """``{field: {name: verdict}}`` for every field present in either config (possibly empty)."""
    results: dict[str, dict[str, str]] = {}
    for name in FIELDS:
        expected_field = expected.get(name) if name in expected else None
        actual_field = actual.get(name)
        has_expected = isinstance(expected_field, dict)
        has_actual = actual_field is not None
        if not has_expected and not has_actual:
            continue
        present = actual_field if isinstance(actual_field, dict) else {}
        verdicts: dict[str, str] = {}
        for key, value in (expected_field or {}).items() if has_expected else ():
            if key in present:
                verdicts[key] = "correct" if values_equal(present[key], value, name, journal) else "incorrect_value"
            else:
                verdicts[key] = "missing"
        for key in present:
            if has_expected and key in expected_field:
                continue
            legal = isinstance(expected_method, str) and spec.is_legal(key, name, expected_method, expected_path)
            verdicts[key] = "unnecessary" if legal else "illegal"
        results[name] = verdicts
    return results


@dataclass
class SampleCounts:
    """Argument counts and per-sample ratios of one judged sample (keys: fields and ``"all"``).

    Count dicts hold only fields with a positive count, except for a non-executable sample, whose
    expected/all/missing dicts hold every field of its expected config (zeros included). Ratio dicts
    hold a key exactly where the ratio's denominator does (a non-executable sample has none).
    """

    executable: bool
    all: dict[str, int] = field(default_factory=dict)
    expected: dict[str, int] = field(default_factory=dict)
    unexpected: dict[str, int] = field(default_factory=dict)
    correct_name: dict[str, int] = field(default_factory=dict)
    correct_value: dict[str, int] = field(default_factory=dict)
    missing: dict[str, int] = field(default_factory=dict)
    unnecessary: dict[str, int] = field(default_factory=dict)
    illegal: dict[str, int] = field(default_factory=dict)
    precision: dict[str, float] = field(default_factory=dict)  # correct_name / retrieved
    recall: dict[str, float] = field(default_factory=dict)  # correct_name / expected
    jaccard: dict[str, float] = field(default_factory=dict)  # correct_name / all
    value_accuracy_wrt_all: dict[str, float] = field(default_factory=dict)  # correct_value / all
    value_accuracy_wrt_expected: dict[str, float] = field(default_factory=dict)  # correct_value / expected
    value_accuracy_wrt_correct_name: dict[str, float] = field(default_factory=dict)  # correct_value / correct_name

    @property
    def retrieved(self) -> dict[str, int]:
        """correct_name + unexpected, per key."""
        return _add(self.correct_name, self.unexpected)


_BUCKETS = {
    "correct": ("expected", "correct_name", "correct_value"),
    "incorrect_value": ("expected", "correct_name"),
    "missing": ("expected", "missing"),
    "unnecessary": ("unexpected", "unnecessary"),
    "illegal": ("unexpected", "illegal"),
}


def _add(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    out = dict(a)
    for key, value in b.items():
        out[key] = out.get(key, 0) + value
    return {k: v for k, v in out.items() if v > 0}


def _ratio(numerator: dict[str, int], denominator: dict[str, int]) -> dict[str, float]:
    return {key: numerator.get(key, 0) / value for key, value in denominator.items() if value > 0}


def sample_counts(result: SampleResult) -> SampleCounts:
    """The argument counts and per-sample ratios of a judged sample (metrics.md §6); pure."""
    if result.verdict == "nonexecutable":
        expected = dict(result.expected_arguments)
        if expected:
            expected["all"] = sum(expected.values())
        return SampleCounts(executable=False, all=dict(expected), expected=dict(expected), missing=dict(expected))

    counts = SampleCounts(executable=True)
    for field_name, verdicts in result.arguments.items():
        for name, verdict in verdicts.items():
            if _is_special(field_name, name):
                continue
            if verdict not in _BUCKETS:
                raise ValueError(f"{result.sample}: unknown argument verdict {verdict!r}")
            for bucket in ("all",) + _BUCKETS[verdict]:
                target = getattr(counts, bucket)
                target[field_name] = target.get(field_name, 0) + 1
    for bucket in ("all", "expected", "unexpected", "correct_name", "correct_value", "missing", "unnecessary", "illegal"):
        target = getattr(counts, bucket)
        if target:
            target["all"] = sum(target.values())
    counts.precision = _ratio(counts.correct_name, counts.retrieved)
    counts.recall = _ratio(counts.correct_name, counts.expected)
    counts.jaccard = _ratio(counts.correct_name, counts.all)
    counts.value_accuracy_wrt_all = _ratio(counts.correct_value, counts.all)
    counts.value_accuracy_wrt_expected = _ratio(counts.correct_value, counts.expected)
    counts.value_accuracy_wrt_correct_name = _ratio(counts.correct_value, counts.correct_name)
    return counts
