"""``wapii datasets scaffold``: a template task for every endpoint of a spec, no model involved.

For each operation, in spec order, the expected request is what a spec-abiding client sends with
only what the operation requires: the server + path with every path parameter filled, every
required query and header parameter, the security credential, and a JSON body with the required
properties (the first declared property when none is required), or a form when that is the first
media type the operation declares. Values come from the schema:
``example`` (3.1: the first of ``examples``), ``default``, the first ``enum`` value or ``const``,
else a value of the schema's type that meets its ``format``, bounds and lengths (strings without a
format are ``<name>`` placeholders, as WAPIIBench writes unknown values). Headers are those axios
sends (``Accept``; ``Content-Type`` with a body), credentials placeholders (``Bearer <token>``).

The task text names the operation (its summary) and every value, so a model can reproduce the
request exactly: a smoke test of an API before generating natural tasks (``datasets generate``).
Every sample is run through ``datasets check``; its problems go into ``checks`` as in WAPIIBench.
The result is a dataset directory in the WAPIIBench layout (``dataset.json``, ``specs/``,
``apis.json``), written all at once.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wapii_core.datasets.staging import refuse_existing, staged_dataset, write_json
from wapii_core.base.errors import WapiiError
from wapii_core.base.media import FORM_TYPE, JSON_TYPE, MULTIPART_TYPE, is_json, media_type
from wapii_core.openapi.operations import OPERATION_METHODS
from wapii_core.openapi.refs import Resolver

AXIOS_ACCEPT = "application/json, text/plain, */*"
"""The ``Accept`` header axios sends by default, as every WAPIIBench expected request carries it."""
FORM_TYPES = (FORM_TYPE, MULTIPART_TYPE)
MAX_DEPTH = 4
_PLACEHOLDER = re.compile(r"{([^{}]*)}")
_FORMATS = {
    "date-time": "2024-01-01T00:00:00Z", "date": "2024-01-01", "time": "12:00:00Z", "email": "user@example.com",
    "uri": "https://example.com", "url": "https://example.com", "uuid": "123e4567-e89b-12d3-a456-426614174000",
    "hostname": "example.com", "ipv4": "192.0.2.1", "ipv6": "2001:db8::1", "byte": "aGVsbG8=",
}


@dataclass
class ScaffoldReport:
    """What was written: operations seen, samples written, samples the check flagged."""

    operations: int = 0
    written: int = 0
    flagged: int = 0

    def lines(self) -> list[str]:
        return [f"{self.operations} operation(s), {self.written} sample(s) written, "
                f"{self.flagged} with check problems (see `checks`)"]


def scaffold_samples(spec: Path, api: str, every: int = 1) -> tuple[list[dict[str, Any]], ScaffoldReport]:
    """The template samples of ``spec`` (every ``every``-th operation, in spec order), checked."""
    from wapii_core.datasets.check import check_sample
    from wapii_core.datasets.loader import read_spec
    from wapii_core.base.model import Sample
    from wapii_core.openapi.request_validation import OperationValidator
    from wapii_core.openapi.index import SpecIndex

    document = read_spec(spec)
    index, validator = SpecIndex.load(spec), OperationValidator.for_spec(spec)
    resolve = Resolver(document, Path(spec))
    report = ScaffoldReport()
    samples: list[dict[str, Any]] = []
    security = _credentials(document, resolve)
    paths = resolve(document.get("paths")) or {}
    position = 0
    for template in index.templates:
        item = resolve(paths.get(template)) or {}
        for method in OPERATION_METHODS:
            if method not in index.methods(template) or method not in ("get", "post", "put", "patch", "delete"):
                continue
            report.operations += 1
            position += 1
            if (position - 1) % every:
                continue
            operation = resolve(item.get(method)) or {}
            task, config = template_request(index.server, template, method, item, operation, resolve, security)
            sample = Sample(api=api, index=len(samples), task=task, config=config)
            problems = check_sample(sample, index, validator)
            report.flagged += bool(problems)
            samples.append({"api": api, "index": len(samples), "task": task, "config": config,
                            "checks": "".join(f"{p}\n" for p in problems) or "OK", "vetted": False})
    report.written = len(samples)
    return samples, report


def template_request(server: str, template: str, method: str, item: dict[str, Any], operation: dict[str, Any],
                     resolve: Resolver, security: dict[str, tuple[str, str, str]]) -> tuple[str, dict[str, Any]]:
    """The task text and the expected request of one operation (see the module docstring)."""
    params: dict[tuple[str, str], dict[str, Any]] = {}
    for nodes in (operation.get("parameters"), item.get("parameters")):
        for node in nodes if isinstance(nodes, list) else []:
            param = resolve(node)
            if isinstance(param, dict) and isinstance(param.get("name"), str):
                params.setdefault((param["name"], str(param.get("in"))), param)
    said: list[str] = []
    path = template
    for name in _PLACEHOLDER.findall(template):
        param = params.get((name, "path"), {})
        value = _value(resolve, param.get("schema"), name, param.get("example"), 0)
        if not _url_safe(value):  # an example such as "heads/main" would change the path's shape
            value = _value(resolve, {**_merged(resolve, param.get("schema")), "example": None, "examples": None,
                                     "default": None}, name, None, 0)
            value = value if _url_safe(value) else f"<{name}>"
        text = value if isinstance(value, str) else json.dumps(value)
        path = path.replace("{" + name + "}", text, 1)
        said.append(f"path parameter {name} {json.dumps(value)}")
    config: dict[str, Any] = {"url": server.rstrip("/") + path, "method": method,
                              "headers": {"Accept": AXIOS_ACCEPT}}
    query: dict[str, Any] = {}
    for (name, location), param in params.items():
        if param.get("required") is True and location in ("query", "header"):
            value = _value(resolve, param.get("schema"), name, param.get("example"), 0)
            if location == "query":
                query[name] = value
            else:
                config["headers"][name] = value if isinstance(value, str) else json.dumps(value)
            said.append(f"{location} parameter {name} {json.dumps(value)}")
    body, body_type = _body(resolve, operation)
    if body is not None and (method in ("put", "post", "patch")  # the only methods the judge allows it on
                             or body_type != JSON_TYPE):
        config["headers"]["Content-Type"] = body_type
    for scheme in _required_schemes(operation, security):
        field, name, value = scheme
        (query if field == "params" else config["headers"])[name] = value
    if query:
        config["params"] = query
    if body:
        config["data"] = body
        said += [f"body property {name} {json.dumps(value)}" for name, value in body.items()]
    summary = str(operation.get("summary") or operation.get("operationId") or "").strip().rstrip(".")
    task = f"{summary + ': ' if summary else ''}send {method.upper()} {template}"
    task += f" with {', '.join(said)}." if said else "."
    return task, config


def _url_safe(value: Any) -> bool:
    """Whether ``value`` can stand in a path segment as it is (no ``/``, ``?``, ``#``, space or ``%``)."""
    return not isinstance(value, (dict, list)) and not any(c in str(value) for c in "/?#% ")


def _body(resolve: Resolver, operation: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    """The body with the required properties and its media type (the first declared; None: no JSON,
    form or multipart object body declared)."""
    request_body = resolve(operation.get("requestBody"))
    content = request_body.get("content") if isinstance(request_body, dict) else None
    if not isinstance(content, dict) or not content:
        return None, JSON_TYPE
    declared, media = next(iter(content.items()))
    base = media_type(str(declared))
    if not (is_json(base) or base in FORM_TYPES):
        return None, JSON_TYPE
    media = resolve(media)
    schema = _merged(resolve, media.get("schema") if isinstance(media, dict) else None)
    properties = resolve(schema.get("properties"))
    if not isinstance(properties, dict) or not properties:
        return None, JSON_TYPE
    names = [n for n in schema.get("required") or [] if n in properties] or [next(iter(properties))]
    return {name: _value(resolve, properties[name], name, None, 1) for name in names}, \
        (base if base in FORM_TYPES else JSON_TYPE)


def _value(resolve: Resolver, schema: Any, name: str, example: Any, depth: int) -> Any:
    """A value for ``schema`` (see the module docstring); ``example``: the parameter's own."""
    schema = _merged(resolve, schema)
    for candidate in (example, schema.get("example")):
        if candidate is not None:
            return candidate
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        return examples[0]
    if "default" in schema and schema["default"] is not None:
        return schema["default"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return next((v for v in schema["enum"] if v is not None), schema["enum"][0])
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind is None:
        kind = "object" if "properties" in schema else "array" if "items" in schema else "string"
    if kind in ("integer", "number"):
        low, high = schema.get("minimum"), schema.get("maximum")
        value = low if isinstance(low, (int, float)) else 1
        if isinstance(high, (int, float)) and value > high:
            value = high
        return int(value) if kind == "integer" else value
    if kind == "boolean":
        return True
    if kind == "array":
        item = _value(resolve, schema.get("items"), name, None, depth + 1) if depth < MAX_DEPTH else "<item>"
        return [item] * max(1, int(schema.get("minItems") or 1))
    if kind == "object":
        properties = resolve(schema.get("properties"))
        if depth >= MAX_DEPTH or not isinstance(properties, dict):
            return {}
        return {n: _value(resolve, properties[n], n, None, depth + 1)
                for n in schema.get("required") or [] if n in properties}
    formatted = _FORMATS.get(str(schema.get("format")))
    if formatted is not None:
        return formatted
    text = f"<{name}>"
    minimum, maximum = schema.get("minLength"), schema.get("maxLength")
    if isinstance(maximum, int) and len(text) > maximum:
        text = "x" * max(maximum, minimum if isinstance(minimum, int) else 1)
    if isinstance(minimum, int) and len(text) < minimum:
        text += "x" * (minimum - len(text))
    return text


def _merged(resolve: Resolver, schema: Any, depth: int = 0) -> dict[str, Any]:
    """``schema`` resolved, with its ``allOf`` parts merged in and its first ``oneOf`` / ``anyOf``
    alternative taken (an empty schema when it is none)."""
    schema = resolve(schema)
    if not isinstance(schema, dict) or depth > MAX_DEPTH * 4:
        return {}
    merged = {k: v for k, v in schema.items() if k not in ("allOf", "oneOf", "anyOf")}
    parts = list(schema.get("allOf") or [])
    for key in ("oneOf", "anyOf"):
        options = schema.get(key)
        if isinstance(options, list) and options and "type" not in merged and "properties" not in merged:
            parts.append(options[0])
    for part in parts:
        part = _merged(resolve, part, depth + 1)
        properties = {**(resolve(part.get("properties")) or {}), **(resolve(merged.get("properties")) or {})}
        required = list(dict.fromkeys([*(part.get("required") or []), *(merged.get("required") or [])]))
        merged = {**part, **merged}
        if properties:
            merged["properties"] = properties
        if required:
            merged["required"] = required
    return merged


def _credentials(document: dict[str, Any], resolve: Resolver) -> dict[str, tuple[str, str, str]]:
    """Security scheme name -> (field, name, placeholder value) of its credential."""
    components = resolve(document.get("components"))
    schemes = resolve(components.get("securitySchemes")) if isinstance(components, dict) else None
    out = {}
    for scheme_name, scheme in (schemes or {}).items() if isinstance(schemes, dict) else ():
        scheme = resolve(scheme)
        if not isinstance(scheme, dict):
            continue
        if scheme.get("type") == "apiKey" and scheme.get("in") in ("header", "query"):
            out[scheme_name] = ("headers" if scheme["in"] == "header" else "params", str(scheme.get("name")),
                                f"<{scheme.get('name')}>")
        elif scheme.get("type") in ("http", "oauth2", "openIdConnect"):
            basic = str(scheme.get("scheme", "")).lower() == "basic"
            out[scheme_name] = ("headers", "Authorization", "Basic <credentials>" if basic else "Bearer <token>")
    out["__global__"] = document.get("security")  # type: ignore[assignment]
    return out


def _required_schemes(operation: dict[str, Any], security: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The credential of the first alternative of the operation's (else the global) requirement;
    with no requirement declared at all, a bearer token when the spec has an http scheme."""
    requirement = operation.get("security")
    if not isinstance(requirement, list):
        requirement = security.get("__global__")
    if not isinstance(requirement, list):
        return [v for k, v in security.items() if k != "__global__" and v[1] == "Authorization"][:1]
    for alternative in requirement:
        if isinstance(alternative, dict):
            return [security[name] for name in alternative if name in security and name != "__global__"]
    return []


def scaffold_dataset(spec: Path, out: Path, api: str | None = None, every: int = 1) -> ScaffoldReport:
    """Write the scaffold of ``spec`` to the new directory ``out`` (all at once, nothing half-written)."""
    from wapii_core.openapi.spec_file import read_spec

    spec, out = Path(spec), Path(out)
    if every < 1:
        raise WapiiError("--every must be at least 1")
    refuse_existing(out)
    api = api or re.sub(r"[^A-Za-z0-9_.-]", "_", spec.stem)
    samples, report = scaffold_samples(spec, api, every)
    if not samples:
        raise WapiiError(f"{spec}: no operation to write a task for")
    document = read_spec(spec)
    with staged_dataset(out, api) as staging:
        write_json(staging / "dataset.json", samples)
        (staging / "specs").mkdir()
        shutil.copyfile(spec, staging / "specs" / f"{api}{spec.suffix}")
        title = (document.get("info") or {}).get("title")
        write_json(staging / "apis.json", {api: title if isinstance(title, str) and title else api})
    return report


