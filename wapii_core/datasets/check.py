"""``wapii datasets check``: every expected request of a dataset validated against its spec.

For each sample, in this order (a failed step ends the sample's checks where later ones would be
meaningless): the URL carries no query string; it matches a path of the spec (literally: strict
matching, the server stripped); the method is defined for that path; every argument in
``headers``, ``params`` and ``data`` is declared for that operation in that location (the judging's
own legality rule, :meth:`SpecIndex.is_legal`); required parameters, the required body and required
body properties are present; and every value is valid for its schema (type, enum, format, ...,
through openapi-core: :mod:`wapii_core.openapi.request_validation`). The name-level messages follow the
WAPIIBench curation check's wording; a problem that check recorded in a sample's ``checks`` field
is reported too (:func:`recorded_problems`), and so are repeated tasks and repeated requests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wapii_core.base.model import Sample
from wapii_core.base.protocols import Dataset

LOCATIONS = {"headers": "header", "params": "query", "data": "request body", "path_params": "path"}
"""Config field -> the location name used in messages."""


@dataclass(frozen=True)
class Problem:
    """One problem of one sample."""

    sample: str
    message: str

    def __str__(self) -> str:
        return f"{self.sample}: {self.message}"


def check_sample(sample: Sample, spec: Any, validator: Any, values: bool = True) -> list[str]:
    """The problems of one sample (``spec``: its SpecIndex, ``validator``: its OperationValidator).

    ``values=False`` checks names and presence only, as WAPIIBench's curation check did: every value
    problem and every missing *nested* body property is left out.
    """
    config = sample.config
    url, method = str(config.get("url", "")), str(config.get("method", "")).lower()
    if "?" in url:
        return [f"URL '{url}' seems to contain query parameters (which should be placed in `params`)."]
    candidates = spec.candidates(url, strict=True)
    if not candidates:
        return [f"URL '{url}' could not be matched to an existing path in the specification."]
    template = candidates[0]
    if not spec.has_method(template, method):
        return [f"Method '{method}' does not exist for path '{url}'."]
    problems = []
    for field in ("headers", "params", "data"):
        for name in config.get(field) or {}:
            if not spec.is_legal(name, field, method, template):
                problems.append(f"Argument '{name}' is not defined for location '{LOCATIONS[field]}', "
                                f"method '{method}', and URL '{url}'.")
    full = {**config, "path_params": spec.path_params(url, strict=True)}
    for violation in validator.validate(full, template):
        if not values and (violation.kind != "missing_required" or _nested(violation.where)):
            continue
        if violation.kind == "missing_required":
            problems.append(f"Required argument missing: {violation.where}.")
        else:
            problems.append(f"Invalid value ({violation.kind}) of {violation.where}: {violation.message}")
    return problems


def _nested(where: str) -> bool:
    """Whether a violation's place is inside a body property (``request body property 'data.name'``)."""
    return where.startswith("request body property") and "." in where.split("'")[1]


def check_dataset(dataset: Dataset, values: bool = True) -> list[Problem]:
    """Every problem of every sample, in dataset order; duplicated tasks and requests too
    (``values``: see :func:`check_sample`)."""
    from wapii_core.openapi.request_validation import OperationValidator
    from wapii_core.openapi.index import SpecIndex

    specs = {api: SpecIndex.load(path) for api, path in dataset.specs.items()}
    validators = {api: OperationValidator.for_spec(path) for api, path in dataset.specs.items()}
    problems = []
    for sample in dataset.samples:
        problems += [Problem(sample.id, m) for m in recorded_problems(sample)]
        problems += [Problem(sample.id, m)
                     for m in check_sample(sample, specs[sample.api], validators[sample.api], values)]
    return problems + duplicates(dataset.samples)


def recorded_problems(sample: Sample) -> list[str]:
    """What the dataset's own curation check recorded in ``checks`` when it is not "OK".

    WAPIIBench ran its check on the generated configurations *before* they were vetted by hand, so
    a recorded problem may no longer be visible in the vetted configuration (its four recorded
    problems name arguments the vetted configurations no longer carry); it is reported as recorded.
    """
    if sample.checks.strip() in ("", "OK"):
        return []
    lines = [line.strip().strip("'") for line in sample.checks.splitlines()]
    return [f"Recorded by the dataset's curation check: {line}" for line in lines if line]


def request_key(sample: Sample) -> str:
    """What makes two expected requests the same request (the api and the whole config)."""
    import json

    return json.dumps([sample.api, sample.config], sort_keys=True)


def duplicates(samples: list[Sample]) -> list[Problem]:
    """A sample whose task text, or whose expected request, repeats an earlier sample's."""
    seen_task: dict[tuple[str, str], str] = {}
    seen_request: dict[str, str] = {}
    problems = []
    for sample in samples:
        task = (sample.api, " ".join(sample.task.split()).lower())
        if task in seen_task:
            problems.append(Problem(sample.id, f"Same task as sample {seen_task[task]}."))
        else:
            seen_task[task] = sample.id
        key = request_key(sample)
        if key in seen_request:
            problems.append(Problem(sample.id, f"Same expected request as sample {seen_request[key]}."))
        else:
            seen_request[key] = sample.id
    return problems
