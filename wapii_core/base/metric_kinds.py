"""What a metric provider's values are: each one's kind and description, and how a report shows it.

A provider declares ``values = {key: Metric(kind, description)}``. The kinds:

- ``rate``: a share in [0, 1], shown as a percentage with one decimal (``0.462`` -> ``46.2 %``);
- ``count``: a number of things, shown as a whole number;
- ``mean``: any other average or measure, shown as a number with three significant digits.

Keys are paths into the provider's (possibly nested) mapping: ``"a.b"`` is ``value["a"]["b"]``
and ``*`` matches any one part (``"verdicts.*"``). Values under ``per_api.<api>`` share the
declarations of the top level. :func:`flatten` turns a mapping into such paths, so nested values
are shown, not dropped; a value no declaration matches is shown as a count when it is an integer
and as a mean otherwise.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from fnmatch import fnmatchcase
from typing import Any, Literal, Mapping

MetricKind = Literal["rate", "count", "mean"]
KINDS: tuple[str, ...] = ("rate", "count", "mean")

PER_API = "per_api"
"""The key under which a provider may give its values per API (``{api: values}``)."""


@dataclass(frozen=True)
class Metric:
    """One declared value: its ``kind`` (``rate``, ``count`` or ``mean``) and a one-sentence ``description``."""

    kind: MetricKind
    description: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"metric kind {self.kind!r} is not one of {', '.join(KINDS)}")

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


def flatten(values: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"a": {"b": 1}, "c": 2}`` -> ``{"a.b": 1, "c": 2}``: every number (or ``None``) under its path.

    Booleans, strings and lists are not values a table shows and are left out; ``per_api`` at the
    top level is left out too (it is shown as columns, see :func:`per_api`)."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        if not prefix and key == PER_API:
            continue
        path = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(flatten(value, path + "."))
        elif value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)):
            out[path] = value
    return out


def per_api(values: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The per-API values of a provider's mapping (``{}`` when it gives none)."""
    nested = values.get(PER_API)
    return {str(k): v for k, v in nested.items() if isinstance(v, Mapping)} if isinstance(nested, Mapping) else {}


def declared(declarations: Mapping[str, Metric], path: str) -> Metric | None:
    """The declaration of ``path``: an exact key, else the first pattern that matches it part by part."""
    if path in declarations:
        return declarations[path]
    parts = path.split(".")
    for key, metric in declarations.items():
        pattern = key.split(".")
        if len(pattern) == len(parts) and all(fnmatchcase(p, q) for p, q in zip(parts, pattern)):
            return metric
    return None


def kind_of(declarations: Mapping[str, Metric], path: str, value: Any) -> str:
    """The kind to show ``value`` at ``path`` as: declared, else ``count`` for an integer, ``mean`` otherwise."""
    metric = declared(declarations, path)
    if metric is not None:
        return metric.kind
    return "count" if isinstance(value, int) and not isinstance(value, bool) else "mean"


def format_metric(value: Any, kind: str) -> str:
    """``value`` as ``kind`` says (module docstring); ``n/a`` for a missing or non-finite value."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "n/a"
    if kind == "rate":
        return f"{100 * float(value):.1f} %"
    if kind == "count":
        return str(round(value)) if float(value).is_integer() else f"{float(value):.1f}"
    return f"{float(value):.3g}"


def record(declarations: Mapping[str, Metric]) -> dict[str, dict[str, str]]:
    """The declarations as summary.json stores them beside the values (``{key: {kind, description}}``),
    so that a report needs no plugin installed to show them."""
    return {key: metric.as_dict() for key, metric in declarations.items()}


def load_record(stored: Mapping[str, Any] | None) -> dict[str, Metric]:
    """:func:`record`'s inverse; entries that are not a valid declaration are skipped."""
    out: dict[str, Metric] = {}
    for key, item in (stored or {}).items():
        try:
            out[str(key)] = Metric(item["kind"], str(item.get("description", "")))
        except (KeyError, TypeError, ValueError):
            continue
    return out
