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

A workflow task (``calls``, docs/workflows.md) is checked by :func:`check_workflow`: each of its
setup calls and calls is checked as above for its URL, method and argument names and its required
arguments; then its expected run is replayed on the task's mock (every setup call and call answered
``2xx``, a ``429`` of its fault plan waited out, every reference resolved; the mock refuses a value
its schema forbids with the same validator); and the store after its calls must differ from the
store after its setup, unless every call of the task reads (:data:`READ_METHODS`): a read-only task.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from wapii_core.base.errors import InputError
from wapii_core.base.model import Sample
from wapii_core.base.protocols import Dataset

LOCATIONS = {"headers": "header", "params": "query", "data": "request body", "path_params": "path"}
"""Config field -> the location name used in messages."""
READ_METHODS = ("get", "head", "options")
"""A workflow task whose calls all use these methods is read-only: it need not change the store."""

Replayer = Callable[[Sample], Any]
"""The expected run of a workflow task: :func:`wapii_core.workflows.replay.replay` on the task's mock
(``before`` and ``after``: the store after the setup and after the calls), raising :class:`InputError`
where the mock refuses a call or a reference names nothing. The caller supplies it (the mock and the
workflows are later stages than the datasets; ``wapii datasets check`` passes
:func:`wapii_core.cli.datasets.workflow_replayer`)."""


@dataclass(frozen=True)
class Problem:
    """One problem of one sample."""

    sample: str
    message: str

    def __str__(self) -> str:
        return f"{self.sample}: {self.message}"


def check_sample(sample: Sample, spec: Any, validator: Any, values: bool = True) -> list[str]:
    """The problems of one sample's expected request (``spec``: its SpecIndex, ``validator``: its
    OperationValidator; ``values``: see :func:`check_config`)."""
    return check_config(sample.config, spec, validator, values)


def check_config(config: dict[str, Any], spec: Any, validator: Any, values: bool = True) -> list[str]:
    """The problems of one request configuration (``url``, ``method``, ``headers``, ``params``, ``data``).

    ``values=False`` checks names and presence only, as WAPIIBench's curation check did: every value
    problem and every missing *nested* body property is left out.
    """
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


def read_only(sample: Sample) -> bool:
    """Whether every call of a workflow task reads (:data:`READ_METHODS`): such a task may change nothing."""
    return all(str(call.get("method", "")).lower() in READ_METHODS for call in sample.calls or [])


def check_workflow(sample: Sample, spec: Any, validator: Any, replayer: Replayer) -> list[str]:
    """The problems of one workflow task (see the module docstring), each naming the call it is about
    (``setup[0]``, ``calls[2]``). A call the spec does not have, or an argument it does not declare,
    ends the check there (the replay would only repeat it); so does a replay that fails."""
    problems = [f"{group}[{position}]: {message}"
                for group, configs in (("setup", sample.setup_calls or []), ("calls", sample.calls or []))
                for position, config in enumerate(configs)
                for message in check_config(config, spec, validator, values=False)]
    if problems:
        return problems
    try:
        run = replayer(sample)
    except InputError as exc:
        own = f"{sample.id} "
        return [exc.problem[len(own):] if exc.problem.startswith(own) else exc.problem]
    if run.before == run.after and not read_only(sample):
        return ["changes nothing: the store after its calls is the store after its setup (only a task whose calls "
                "all read, GET, HEAD or OPTIONS, may change nothing)"]
    return []


def _nested(where: str) -> bool:
    """Whether a violation's place is inside a body property (``request body property 'data.name'``)."""
    return where.startswith("request body property") and "." in where.split("'")[1]


def check_dataset(dataset: Dataset, values: bool = True, replayer: Replayer | None = None) -> list[Problem]:
    """Every problem of every sample, in dataset order; duplicated tasks and requests too
    (``values``: see :func:`check_config`; a workflow task's values are checked by its replay whatever
    ``values`` says). ``replayer`` (see :data:`Replayer`) is required when the dataset has workflow tasks."""
    from wapii_core.openapi.request_validation import OperationValidator
    from wapii_core.openapi.index import SpecIndex

    specs = {api: SpecIndex.load(path) for api, path in dataset.specs.items()}
    validators = {api: OperationValidator.for_spec(path) for api, path in dataset.specs.items()}
    problems = []
    for sample in dataset.samples:
        problems += [Problem(sample.id, m) for m in recorded_problems(sample)]
        if sample.workflow:
            if replayer is None:
                raise ValueError(f"{dataset.name} has workflow tasks ({sample.id}): check_dataset needs a replayer")
            found = check_workflow(sample, specs[sample.api], validators[sample.api], replayer)
        else:
            found = check_sample(sample, specs[sample.api], validators[sample.api], values)
        problems += [Problem(sample.id, m) for m in found]
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
    """What makes two expected requests the same request (the api and the whole config; a workflow
    task's setup and all its calls)."""
    import json

    if sample.workflow:
        return json.dumps([sample.api, sample.setup_calls or [], sample.calls], sort_keys=True)
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
